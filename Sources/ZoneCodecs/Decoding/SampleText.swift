#if canImport(Glibc)
    import Glibc
#endif

/// A record's bytes as ``SampleFastPath`` reads them: a base pointer and a count, with reads of
/// whole 8-byte words where they fit, so a key or a literal is one or two word compares and
/// a run of digits or string bytes is checked eight at a time.
///
/// Indices are not checked on each read; every read below is guarded by the count (a word at
/// `index` is read only when `index + 8 <= count`), so the type never reads outside the
/// buffer it was made from, which must outlive it.
struct SampleText {
    let base: UnsafePointer<UInt8>
    let count: Int

    /// Nil for a buffer without memory (an empty one), which no sample is.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress else { return nil }
        base = start.assumingMemoryBound(to: UInt8.self)
        count = bytes.count
    }

    @inline(__always)
    subscript(index: Int) -> UInt8 { base[index] }

    /// The 8 bytes at `index` as a little-endian word; `index + 8 <= count`.
    @inline(__always)
    func word(at index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
    }

    /// The bytes at `span` as a raw buffer.
    func view(_ span: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + span.lowerBound, count: span.count)
    }

    /// Whether `literal` (at most 16 bytes) lies at `index`: one word compare up to 8 bytes, two
    /// (overlapping) up to 16. Transparent, so it is always inlined and the literal's words are
    /// constants (`@inline(__always)` was not honoured in the fast path's loop, and the words
    /// were then built byte by byte on every call); a byte loop, out of line, only within 8
    /// bytes of the end.
    @_transparent
    func matches(_ literal: StaticString, at index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index >= 0, index + max(length, 8) <= count else { return matchesNearEnd(literal, at: index) }
        if length <= 8 {
            return word(at: index) & Self.mask(length) == Self.word(literal, from: 0, length: length)
        }
        return word(at: index) == Self.word(literal, from: 0, length: 8)
            && word(at: index + length - 8) == Self.word(literal, from: length - 8, length: 8)
    }

    @inline(never)
    private func matchesNearEnd(_ literal: StaticString, at index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index >= 0, index + length <= count else { return false }
        for offset in 0..<length where base[index + offset] != literal.utf8Start[offset] { return false }
        return true
    }

    /// Whether the bytes at `span` equal `other` (a `memcmp`: a byte loop compiled worse).
    @inline(__always)
    func equals(_ span: Range<Int>, _ other: UnsafeRawBufferPointer) -> Bool {
        guard span.count == other.count else { return false }
        guard let otherBase = other.baseAddress else { return span.isEmpty }
        return memcmp(base + span.lowerBound, otherBase, span.count) == 0
    }

    /// The low `length` bytes of a word set (0...8).
    @inline(__always)
    static func mask(_ length: Int) -> UInt64 {
        length >= 8 ? .max : (1 << UInt64(length * 8)) &- 1
    }

    /// `length` bytes of `literal` from `start` as a little-endian word: a constant once
    /// inlined where the literal is known.
    @inline(__always)
    static func word(_ literal: StaticString, from start: Int, length: Int) -> UInt64 {
        var word: UInt64 = 0
        for offset in 0..<length { word |= UInt64(literal.utf8Start[start + offset]) << UInt64(offset * 8) }
        return word
    }

    /// Whether any of the 8 bytes of `word` is outside the plain string bytes (printable ASCII
    /// 0x20...0x7E other than `"` and `\`). A classic SWAR test: each check leaves the high bit
    /// of a byte set where the byte is below a bound or equal to a value.
    @inline(__always)
    static func hasNonPlainByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let below0x20 = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        // 0x7F and above: adding 1 sets the high bit of 0x7F; bytes with it set already count.
        let atLeast0x7F = word | ((word & ~highBits) &+ ones)
        return (below0x20 | isQuote | isBackslash | atLeast0x7F) & highBits != 0
    }

    /// Whether all 8 bytes of `word` are ASCII digits: each high nibble is 3, and stays 3
    /// when 6 is added (0x3A...0x3F do not).
    @inline(__always)
    static func isEightDigits(_ word: UInt64) -> Bool {
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let threes: UInt64 = 0x3030_3030_3030_3030
        return word & nibbles == threes && (word &+ 0x0606_0606_0606_0606) & nibbles == threes
    }

    /// The value of 8 ASCII digits, the first in the lowest byte: pairs, then fours, then
    /// the eight, in three multiplies instead of eight.
    @inline(__always)
    static func eightDigitsValue(_ word: UInt64) -> UInt64 {
        var value = word &- 0x3030_3030_3030_3030
        value = value &* 10 &+ (value >> 8)
        let low = (value & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 << 32))
        let high = ((value >> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 << 32))
        return (low &+ high) >> 32
    }
}

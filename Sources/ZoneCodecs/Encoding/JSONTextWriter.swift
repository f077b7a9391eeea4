import CJansson

#if canImport(Glibc)
    import Glibc
#endif

/// Writes JSON text into a reusable byte buffer: the one place that decides how ZoneStream's
/// outputs spell numbers and strings, used by ``ZoneChangeWriter`` (the frequent output,
/// written directly) and by ``JanssonBuilder/dump(_:)`` (every other output, built as a
/// jansson tree). Numbers: whole numbers below 2^53 as integers (`109`); any other double as
/// the shortest text that reads back as the same double (`81.9`, not jansson's
/// `81.900000000000006`). Strings: jansson's escaping with default flags.
///
/// The text is written into storage that only grows, with a count of the bytes in use: each
/// piece is one bounds check and a memcpy. (Appending to an array cost about 15 ns per piece in
/// `Array.append(contentsOf:)`, most of a zone change's 1.5 µs.) The storage is a plain
/// allocation rather than an array: an array checked that it was uniquely referenced, and
/// retained and released its buffer, for every piece written, which was a fifth of a zone
/// change's encoding (perf).
///
/// A copy of a writer shares its bytes until either grows its storage: read through a copy
/// (as ``ZoneChangeWriter/withBytes(_:)`` lends them), write through one writer only.
struct JSONTextWriter {
    /// Frees the storage when the last writer sharing it is gone.
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    private var storage: Storage
    /// `storage.base`, kept here so a write reads no class property.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes in use are `base[..<count]`; the rest is room.
    private(set) var count = 0

    init(capacity: Int = 1024) {
        storage = Storage(capacity: max(16, capacity))
        base = storage.base
        self.capacity = storage.capacity
    }

    /// The text written (a copy).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The text written (a copy); the writer is empty after it.
    mutating func takeBytes() -> [UInt8] {
        defer { count = 0 }
        return bytes
    }

    /// The text written, without copying it.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(start: base, count: count)) }
    }

    mutating func removeAll() {
        count = 0
    }

    /// Constant text (every literal in the writers is one).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Text written before (by this type), copied as it is.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        write(bytes)
    }

    /// Text written as it is, unescaped (names and units the engine defines).
    mutating func appendUnescaped(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func write(_ source: UnsafeRawBufferPointer) {
        guard let start = source.baseAddress, !source.isEmpty else { return }
        let end = count + source.count
        if end > capacity { grow(toAtLeast: end) }
        UnsafeMutableRawPointer(base + count).copyMemory(from: start, byteCount: source.count)
        count = end
    }

    private mutating func grow(toAtLeast size: Int) {
        var newCapacity = max(16, capacity * 2)
        while newCapacity < size { newCapacity *= 2 }
        let grown = Storage(capacity: newCapacity)
        grown.base.update(from: base, count: count)
        storage = grown
        base = grown.base
        capacity = newCapacity
    }

    mutating func appendString(_ text: String) {
        append(byte: UInt8(ascii: "\""))
        appendEscaped(text)
        append(byte: UInt8(ascii: "\""))
    }

    mutating func appendString(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(byte: UInt8(ascii: "\""))
        if utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            write(UnsafeRawBufferPointer(utf8))
        } else {
            for byte in utf8 { appendEscaped(byte) }
        }
        append(byte: UInt8(ascii: "\""))
    }

    /// jansson's escaping with default flags: quote, backslash and control characters;
    /// UTF-8 passes through; `/` is not escaped.
    mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            // Ids and names rarely need escaping: then the whole text is one memcpy.
            if utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
                write(UnsafeRawBufferPointer(utf8))
            } else {
                for byte in utf8 { appendEscaped(byte) }
            }
        }
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append(#"\""#)
        case UInt8(ascii: "\\"): append(#"\\"#)
        case 0x08: append(#"\b"#)
        case 0x0C: append(#"\f"#)
        case 0x0A: append(#"\n"#)
        case 0x0D: append(#"\r"#)
        case 0x09: append(#"\t"#)
        case 0..<0x20:
            append(#"\u00"#)
            append(byte: Self.hexDigits[Int(byte >> 4)])
            append(byte: Self.hexDigits[Int(byte & 0xF)])
        default: append(byte: byte)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)


    /// The decimal digits of `value`, two at a time from the last into a scratch of 24 bytes,
    /// then copied in one piece: a division by 100 and a two-byte copy from a table of `00` to
    /// `99` for two digits, where a digit at a time took a division to count the digits and
    /// another to write each one (a zone change writes eight numbers, and their digits were
    /// half of its encoding, callgrind).
    mutating func appendDigits(_ value: UInt64) {
        // UInt64.max has 20 digits.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        Self.digitPairs.withUnsafeBufferPointer { pairs in
            withUnsafeMutableBytes(of: &scratch) { buffer in
                var position = buffer.count
                var remaining = value
                while remaining >= 100 {
                    let pair = pairs[Int(truncatingIfNeeded: remaining % 100)]
                    remaining /= 100
                    position &-= 2
                    buffer.storeBytes(of: pair, toByteOffset: position, as: UInt16.self)
                }
                if remaining >= 10 {
                    position &-= 2
                    buffer.storeBytes(
                        of: pairs[Int(truncatingIfNeeded: remaining)], toByteOffset: position, as: UInt16.self)
                } else {
                    position &-= 1
                    buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining)
                }
                write(UnsafeRawBufferPointer(rebasing: buffer[position...]))
            }
        }
    }

    /// `00` to `99`, each pair's two ASCII digits as the bytes of a `UInt16` in memory order.
    private static let digitPairs: [UInt16] = (0..<100).map { pair in
        let tens = UInt16(UInt8(ascii: "0")) + UInt16(pair / 10)
        let ones = UInt16(UInt8(ascii: "0")) + UInt16(pair % 10)
        return UInt16(littleEndian: tens | ones << 8)
    }
}

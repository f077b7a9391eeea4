/// The session ids a decoder made lately, found again from their bytes, so a sample of a
/// session seen before takes its id from here instead of making a `String` again.
///
/// Making the id (`String(decoding:as:)`, which checks the bytes are UTF-8) was a tenth of a
/// sample's decoding (perf), and a worker sees the same few thousand ids over and
/// over. Ids of up to 15 bytes (Swift's small strings, so the table holds no allocation) are
/// kept in a direct-mapped table keyed by their bytes, with the length in the last byte: a hit
/// is two word compares, a miss makes the `String` and takes the slot. 4,096 slots of 32 bytes
/// (128 KB a worker).
@usableFromInline
struct SessionIdCache {
    private struct Entry {
        /// The id's first 8 bytes, zero beyond its end (all zero: an empty slot, no id is empty).
        var low: UInt64 = 0
        /// Bytes 8 to 14, zero beyond its end, and the length in the top byte.
        var high: UInt64 = 0
        var id = ""
    }

    static let slotBits = 12
    static let slotCount = 1 << slotBits
    private var entries = [Entry](repeating: Entry(), count: slotCount)

    /// The slot of an id's two words: the top bits of a multiplicative hash, which depend on
    /// every bit of the words. (An earlier version took the low bits after folding the top
    /// half down, and a product's low bits do not depend on a word's high bytes: ids of 7 or 8
    /// bytes that differ only in their last byte, `gym3-117` and `gym3-118`, shared a slot.
    /// A gym's 1,200 ids used 80 slots, and most samples made their id's `String` again.)
    @inline(__always)
    static func slot(low: UInt64, high: UInt64) -> Int {
        let hash = (low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xFF51_AFD7_ED55_8CCD
        return Int(truncatingIfNeeded: hash >> UInt64(64 - slotBits))
    }

    /// An id of up to 15 bytes at `span` as two words: its first 8 bytes, then the rest
    /// with the length in the top byte; zero beyond its end.
    @inline(__always)
    static func words(_ text: SampleText, _ span: Range<Int>) -> (low: UInt64, high: UInt64) {
        let length = span.count
        let start = span.lowerBound
        let low: UInt64
        let high: UInt64
        if start + 16 <= text.count {
            // The record goes on past the id (its closing quote at least): two word reads.
            low = text.word(at: start) & SampleText.mask(length)
            high = length > 8 ? text.word(at: start + 8) & SampleText.mask(length - 8) : 0
        } else {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) {
                $0.baseAddress!.copyMemory(from: text.base + start, byteCount: length)
            }
            low = UInt64(littleEndian: words.0)
            high = UInt64(littleEndian: words.1)
        }
        return (low, high | UInt64(length) << 56)
    }

    /// The id whose UTF-8 bytes are `text` at `span` (already checked to be printable ASCII).
    @inline(__always)
    mutating func id(_ text: SampleText, _ span: Range<Int>) -> String {
        let length = span.count
        guard length <= 15 else { return String(decoding: text.view(span), as: UTF8.self) }
        let (low, high) = Self.words(text, span)
        let slot = Self.slot(low: low, high: high)
        return entries.withUnsafeMutableBufferPointer { table in
            if table[slot].low == low && table[slot].high == high { return table[slot].id }
            let id = String(decoding: text.view(span), as: UTF8.self)
            table[slot] = Entry(low: low, high: high, id: id)
            return id
        }
    }
}

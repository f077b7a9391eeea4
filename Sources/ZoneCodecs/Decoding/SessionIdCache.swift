/// The session ids a decoder made lately, found again from their bytes, so a sample of a
/// session seen before takes its id from here instead of making a `String` again.
///
/// Making the id (`String(decoding:as:)`, which checks the bytes are UTF-8) was a tenth of a
/// sample's decoding (perf, session 12), and a worker sees the same few thousand ids over and
/// over. Ids of up to 15 bytes (Swift's small strings, so the table holds no allocation) are
/// kept in a direct-mapped table keyed by their bytes, with the length in the last byte: a hit
/// is two word compares, a miss makes the `String` and takes the slot. 4,096 slots of 32 bytes
/// (128 KB a worker): with 1,024 a gym's 1,200 sessions per worker missed on about half.
@usableFromInline
struct SessionIdCache {
    private struct Entry {
        /// The id's first 8 bytes, zero beyond its end (all zero: an empty slot, no id is empty).
        var low: UInt64 = 0
        /// Bytes 8 to 14, zero beyond its end, and the length in the top byte.
        var high: UInt64 = 0
        var id = ""
    }

    /// A power of two.
    static let slotCount = 4096
    private var entries = [Entry](repeating: Entry(), count: slotCount)

    /// The id whose UTF-8 bytes are `text` at `span` (already checked to be printable ASCII).
    @inline(__always)
    mutating func id(_ text: SampleText, _ span: Range<Int>) -> String {
        let length = span.count
        guard length <= 15 else { return String(decoding: text.view(span), as: UTF8.self) }
        let start = span.lowerBound
        var low: UInt64
        var high: UInt64
        if start + 16 <= text.count {
            // The record goes on past the id (its closing quote at least): two word reads.
            low = text.word(at: start) & SampleText.mask(length)
            high = length > 8 ? text.word(at: start + 8) & SampleText.mask(length - 8) : 0
        } else {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: text.base + start, byteCount: length) }
            low = UInt64(littleEndian: words.0)
            high = UInt64(littleEndian: words.1)
        }
        high |= UInt64(length) << 56
        var hash = (low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 31
        let slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        return entries.withUnsafeMutableBufferPointer { table in
            if table[slot].low == low && table[slot].high == high { return table[slot].id }
            let id = String(decoding: text.view(span), as: UTF8.self)
            table[slot] = Entry(low: low, high: high, id: id)
            return id
        }
    }
}

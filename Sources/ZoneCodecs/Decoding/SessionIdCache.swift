/// The session ids a decoder made lately, found again from their bytes, so a sample of a
/// session seen before takes its id from here instead of making a `String` again.
///
/// Making the id (`String(decoding:as:)`, which checks the bytes are UTF-8) was a tenth of a
/// sample's decoding (perf, session 12), and a worker sees the same few thousand ids over and
/// over. Ids of up to 16 bytes are kept, in a direct-mapped table keyed by their exact bytes
/// and length: a hit is two word compares, a miss makes the `String` and takes the slot.
/// Ids up to 15 bytes are Swift small strings, so the table holds no allocation for them.
struct SessionIdCache {
    private struct Entry {
        var length = 0
        var low: UInt64 = 0
        var high: UInt64 = 0
        var id = ""
    }

    /// A power of two.
    static let slotCount = 1024
    private var entries = [Entry](repeating: Entry(), count: slotCount)

    /// The id whose UTF-8 bytes are `bytes` (already checked to be printable ASCII).
    @inline(__always)
    mutating func id(_ bytes: UnsafeRawBufferPointer) -> String {
        let length = bytes.count
        guard length <= 16, let base = bytes.baseAddress else { return String(decoding: bytes, as: UTF8.self) }
        // The bytes as two words, zero beyond the end.
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: base, byteCount: length) }
        var hash = (words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 29
        let slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        return entries.withUnsafeMutableBufferPointer { table in
            if table[slot].length == length && table[slot].low == words.0 && table[slot].high == words.1 {
                return table[slot].id
            }
            let id = String(decoding: bytes, as: UTF8.self)
            table[slot] = Entry(length: length, low: words.0, high: words.1, id: id)
            return id
        }
    }
}

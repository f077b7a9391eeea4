import Testing
import ZoneSimulation

@testable import ZoneCodecs

/// The decoder's session-id table gives back exactly the id of the bytes it is asked for,
/// whatever it held before: ids of every length around its 15-byte limit, ids that differ in
/// one byte or only in length, and far more ids than it has slots, asked for in random order;
/// ids at the end of their buffer (copied) and followed by other bytes (read as words).
@Suite struct SessionIdCacheTests {
    @Test func givesTheIdOfTheBytesWhateverItHeld() {
        var random = SplitMix64(seed: 12)
        let alphabet = Array("ab-0123456789".utf8)
        var ids: [[UInt8]] = [
            "a", "a0", "a00", "0a", "ab-1", "ab-1-", "0123456789abcdef", "0123456789abcdeg",
            "0123456789abcdef0", "0123456789abcdef01234",
        ].map { Array($0.utf8) }
        for _ in 0..<5000 {
            let length = 1 + Int(random.next() % 20)
            ids.append((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
        }
        var cache = SessionIdCache()
        for round in 0..<(ids.count * 4) {
            let bytes = ids[Int(random.next() % UInt64(ids.count))]
            // Half of them inside a record: a prefix before the id and bytes after it.
            let prefix: [UInt8] = round % 2 == 0 ? [] : Array(#"{"session":""#.utf8)
            let suffix: [UInt8] = round % 2 == 0 ? [] : Array(#"","ts":1717200000000}"#.utf8)
            let record = prefix + bytes + suffix
            let id = record.withUnsafeBytes { buffer in
                SampleText(buffer).map { cache.id($0, prefix.count..<(prefix.count + bytes.count)) }
            }
            #expect(id.map { Array($0.utf8) } == bytes)
        }
    }

    /// The ids a gym class has at once (the load generator's `gym3-117`: ids of one length
    /// that differ in their last bytes) take as many slots as random keys would, so a sample
    /// finds its id again. The table's first hash put ids that differ only in their 7th or 8th
    /// byte in one slot: 1,200 of these ids used 80 slots.
    @Test func aGymsIdsSpreadOverTheTable() {
        let ids = (0..<10).flatMap { wave in (0..<120).map { member in "gym\(wave)-\(member)" } }
        let slots = Set(
            ids.map { id in
                Array(id.utf8).withUnsafeBytes { buffer in
                    SampleText(buffer).map { text in
                        let (low, high) = SessionIdCache.words(text, 0..<text.count)
                        return SessionIdCache.slot(low: low, high: high)
                    } ?? -1
                }
            })
        // 1,200 random keys in 4,096 slots take about 1,045 of them.
        #expect(slots.count >= 1_000, "\(slots.count) slots for \(ids.count) ids")
        #expect(!slots.contains(-1))
    }
}

import Testing
import ZoneCodecs
import ZoneEngine
import ZoneTestSupport

/// Every hostile record gets its contract reason from the fast decoder, and the same
/// verdict from the jansson reference.
@Suite struct HostileCorpusTests {
    @Test func everyHostileRecordIsRefusedWithItsReason() {
        var decoder = WorkoutEventDecoder()
        var tally = DecoderDifferentialTests.Tally()
        for entry in HostileCorpus.entries {
            guard case .failure(let rejection) = decoder.decode(value: entry.value, key: entry.key) else {
                Issue.record("\(entry.name): accepted")
                continue
            }
            #expect(rejection.reason == entry.reason, "\(entry.name): \(rejection.detail)")
            DecoderDifferentialTests.compare(entry.value ?? [], key: entry.key, tally: &tally)
        }
        #expect(tally.agreed + tally.overflowCases == HostileCorpus.entries.count)
    }

    @Test func aDeadLetterForAHugeValueStaysUnderKafkasDefaultMessageLimit() throws {
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let record = OutputEncoder.deadLetter(
            Rejection(.tooLarge, "value of 1048576 bytes"), topic: "workout-events", partition: 3, offset: 9, key: [0x61],
            value: huge)
        #expect(record.count < 1_000_000)
        let text = String(decoding: record, as: UTF8.self)
        #expect(text.contains("value_base64 holds the first 700000 of 1048576 bytes"))
        let small = OutputEncoder.deadLetter(
            Rejection(.tooLarge, "x"), topic: "t", partition: 0, offset: 0, key: nil, value: Array(huge[..<70_000]))
        #expect(!String(decoding: small, as: UTF8.self).contains("holds the first"))
    }
}

import Foundation
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

    @Test func aDeadLetterIsAlwaysDeliverable() throws {
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let hugeKey = [UInt8](repeating: UInt8(ascii: "k"), count: 450_000)
        let record = OutputEncoder.deadLetter(
            Rejection(.tooLarge, "value of 1048576 bytes"), topic: "workout-events", partition: 3, offset: 9,
            key: hugeKey, value: huge)
        #expect(record.value.count < 1_000_000 - 1024, "value and key fit Kafka's default limit together")
        #expect(record.key?.count == 1024)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(record.value)) as? [String: Any])
        #expect(object["truncated"] as? Bool == true)
        let value = try #require(Data(base64Encoded: object["value_base64"] as? String ?? ""))
        let key = try #require(Data(base64Encoded: object["key_base64"] as? String ?? ""))
        #expect(value == Data(huge[..<262_144]))
        #expect(key == Data(hugeKey[..<262_144]))

        let exact = OutputEncoder.deadLetter(
            Rejection(.tooLarge, "x"), topic: "t", partition: 0, offset: 0, key: [0x61],
            value: Array(huge[..<262_144]))
        let exactObject = try #require(try JSONSerialization.jsonObject(with: Data(exact.value)) as? [String: Any])
        #expect(exactObject["truncated"] == nil, "a value of exactly the limit is not cut")
        #expect(exact.key == [0x61])
    }
}

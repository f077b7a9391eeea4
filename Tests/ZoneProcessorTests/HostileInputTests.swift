import Foundation
import Testing
import ZoneBench
import ZoneEngine
import ZoneProcessor
import ZoneSimulation
import ZoneTestSupport

/// The hostile corpus through Kafka: every bad record reaches `zonestream-dlq` with its reason
/// and offset while the good records around it on the same partition keep flowing; the
/// live-session cap dead-letters the sessions over it.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct HostileInputTests {
    @Test func hostileRecordsAreDeadLetteredWhileThePartitionKeepsFlowing() throws {
        let broker = try BrokerProcess(partitions: 1)
        defer { broker.stop() }
        var configuration = ProcessorConfiguration.forTest(bootstrap: broker.bootstrapServers, group: "hostile")
        configuration.maxLiveSessions = 2
        let running = try RunningProcessor(configuration: configuration)
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "zonestream-dlq"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let session = HostileCorpus.session

        // One partition: offset n is the n-th record sent.
        var expected: [Int: DeadLetterReason] = [:]
        var offset = 0
        func send(_ key: [UInt8]?, _ value: [UInt8]?, _ reason: DeadLetterReason?) throws {
            try input.send("workout-events", key: key.map { String(decoding: $0, as: UTF8.self) }, value: value)
            if let reason { expected[offset] = reason }
            offset += 1
        }
        for (_, value) in HostileCorpus.invalidZones(session: session) {
            try send(Array(session.utf8), value, .invalidZones)
        }
        let corpus = HostileCorpus.entries
        for (index, entry) in corpus.enumerated() {
            try send(entry.key, entry.value, entry.reason)
            let ts = 1000 + (index + 1) * 1000
            try send(
                Array(session.utf8),
                Array(
                    "{\"type\":\"sample\",\"session\":\"\(session)\",\"ts\":\(ts),\"quantity\":\"heart_rate\",\"value\":120}"
                        .utf8), nil)
        }
        try send(
            Array(session.utf8),
            Array("{\"type\":\"session_end\",\"session\":\"\(session)\",\"ts\":\((corpus.count + 2) * 1000)}".utf8), nil
        )
        for (index, id) in ["cap-1", "cap-2", "cap-3", "cap-4"].enumerated() {
            try send(
                Array(id.utf8), Array("{\"type\":\"session_start\",\"session\":\"\(id)\",\"ts\":1000}".utf8),
                index >= 2 ? .sessionLimit : nil)
        }
        try input.flush()

        let arrived = collector.wait(seconds: 60) {
            $0.records("zonestream-dlq").count >= expected.count && $0.records("workouts-finished").count >= 1
        }
        #expect(running.stop() == nil)
        #expect(arrived)
        var reasons: [Int: String] = [:]
        for record in collector.records("zonestream-dlq") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(record.value.utf8)) as? [String: Any])
            reasons[try #require(object["offset"] as? Int)] = object["reason"] as? String
        }
        #expect(reasons.count == expected.count)
        for (offset, reason) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(reasons[offset] == reason.rawValue, "offset \(offset)")
        }
        // Every dead letter, of every reason (truncated ones included), matches the DLQ's schema.
        try SchemaValidator.validate(collector.records("zonestream-dlq").map(\.value), schema: "zonestream-dlq")
        try SchemaValidator.validate(collector.records("workouts-finished").map(\.value), schema: "workouts-finished")
        // The good samples in between all counted.
        let finished = try #require(collector.records("workouts-finished").first)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(finished.value.utf8)) as? [String: Any])
        let statistics = try #require((summary["statistics"] as? [String: Any])?["heart_rate"] as? [String: Any])
        #expect(statistics["samples"] as? Int == corpus.count)
        print("hostile corpus: \(expected.count) bad records of \(offset) dead-lettered with their reasons")
    }
}

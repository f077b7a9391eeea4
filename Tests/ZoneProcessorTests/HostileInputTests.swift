import Foundation
import Testing
import ZoneEngine
import ZoneHarness
import ZoneProcessor
import ZoneSimulation
import ZoneTestSupport

/// The hostile corpus through Kafka: every bad record reaches `zonestream-dlq` with its reason
/// and offset while the good records around it on the same partition keep flowing; the
/// live-session cap dead-letters the sessions over it.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct HostileInputTests {
    /// A device clock ten years ahead and a gateway sending microseconds: each such event is
    /// dead-lettered as `out_of_range` (`max_future_ms`), the session ends when it really
    /// ends, and the person's later workout still counts.
    @Test(arguments: BrokerKind.selected)
    func aClockFarAheadNeitherEndsASessionNorFreezesItsPersonsHistory(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 1)
        defer { broker.stop() }
        let running = try RunningProcessor(configuration: .forTest(bootstrap: broker.bootstrapServers, group: "clock"))
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "person-summaries", "zonestream-dlq"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let start: Int64 = 1_717_200_000_000
        func send(_ session: String, _ fields: String, ts: Int64) throws {
            let text = #"{"session":"\#(session)","ts":\#(ts),\#(fields)}"#
            try input.send("workout-events", key: session, value: Array(text.utf8))
        }
        let sample = #""type":"sample","quantity":"heart_rate","value":130"#
        try send("clock-1", #""type":"session_start","person":"tomas""#, ts: start)
        try send("clock-1", sample, ts: start)
        try send("clock-1", sample, ts: now + 10 * 365 * 86_400_000)  // ten years ahead
        try send("clock-1", sample, ts: now * 1000)  // microseconds
        try send("clock-1", sample, ts: start + 5000)
        try send("clock-1", #""type":"session_end""#, ts: start + 10_000)
        try send("clock-2", #""type":"session_start","person":"tomas""#, ts: start + 3_600_000)
        try send("clock-2", sample, ts: start + 3_600_000)
        try send("clock-2", #""type":"session_end""#, ts: start + 3_610_000)
        try input.flush()
        let arrived = collector.wait(seconds: 60) {
            $0.records("person-summaries").count >= 2 && $0.records("zonestream-dlq").count >= 2
        }
        #expect(running.stop() == nil)
        #expect(arrived, "both workouts' summaries and the two dead letters")
        let reasons = collector.records("zonestream-dlq").map { $0.value }
        #expect(reasons.count == 2 && reasons.allSatisfy { $0.contains(#""reason":"out_of_range""#) }, "\(reasons)")
        let finished = collector.records("workouts-finished").map(\.value)
        #expect(finished.count == 2)
        #expect(finished.first?.contains(#""end_reason":"ended","duration_ms":10000"#) == true, "\(finished)")
        let last = collector.records("person-summaries").last?.value ?? ""
        #expect(last.contains(#""as_of_ts":\#(start + 3_610_000)"#), "\(last)")
        #expect(last.contains(#""days_7":{"workouts":2"#), "the later workout counts: \(last)")
    }

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

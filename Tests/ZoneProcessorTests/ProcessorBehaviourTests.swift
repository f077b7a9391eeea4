import Foundation
import Synchronization
import Testing
import ZoneCodecs
import ZoneEngine
import ZoneHarness
import ZoneKafka
import ZoneProcessor
import ZoneSimulation
import ZoneTestSupport

/// The processor's behaviour on the test brokers: dead letters while the partition keeps
/// flowing, idle timeout on the wall clock, and a rebalance between two instances.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct ProcessorBehaviourTests {
    static func event(_ session: String, _ ts: Int64, _ body: String) -> [UInt8] {
        Array("{\"session\":\"\(session)\",\"ts\":\(ts),\(body)}".utf8)
    }

    @Test(arguments: BrokerKind.selected)
    func everyDeadLetterReasonAndThePartitionKeepsFlowing(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 2)
        defer { broker.stop() }
        let running = try RunningProcessor(configuration: .forTest(bootstrap: broker.bootstrapServers, group: "dlq"))
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "zonestream-dlq"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let s = "dlq-session"
        let bad: [(String?, [UInt8]?, String)] = [
            (s, Array(repeating: UInt8(ascii: " "), count: 70_000), "too_large"),
            (s, Array("{not json".utf8), "malformed_json"),
            (s, nil, "malformed_json"),
            (s, Array(#"{"type":"sample","session":"dlq-session","ts":1}"#.utf8), "missing_field"),
            (s, Self.event(s, 1, #""type":"sample","quantity":"heart_rate","value":"high""#), "bad_type"),
            (s, Self.event(s, 1, #""type":"stretch""#), "unknown_type"),
            ("", Array(#"{"type":"pause","session":"","ts":1}"#.utf8), "invalid_session"),
            ("other", Self.event(s, 1, #""type":"pause""#), "key_mismatch"),
            (s, Self.event(s, 1, #""type":"sample","quantity":"cycling_power","value":100,"unit":"bpm""#), "bad_unit"),
            (s, Self.event(s, 1, #""type":"sample","quantity":"heart_rate","value":1e400"#), "out_of_range"),
        ]
        for (key, value, _) in bad { try input.send("workout-events", key: key, value: value) }
        // Engine-level reasons, then a good session on the same partition.
        let good: [([UInt8], String?)] = [
            (
                Self.event(s, 1000, #""type":"session_start","zones":{"heart_rate":{"boundaries":[100,50]}}"#),
                "invalid_zones"
            ),
            (Self.event(s, 1000, #""type":"sample","quantity":"heart_rate","value":120"#), nil),
            (Self.event(s, 500, #""type":"pause""#), "invalid_transition"),
            (
                Self.event(s, 2000, #""type":"session_start","zones":{"heart_rate":{"boundaries":[100,150]}}"#),
                "zones_after_collection_began"
            ),
            (Self.event(s, 5000, #""type":"session_end""#), nil),
            (Self.event(s, 6000, #""type":"sample","quantity":"heart_rate","value":120"#), "session_finished"),
        ]
        for (value, _) in good { try input.send("workout-events", key: s, value: value) }
        try input.flush()
        let wantedReasons = bad.map(\.2) + good.compactMap(\.1)
        let arrived = collector.wait {
            $0.records("zonestream-dlq").count >= wantedReasons.count && $0.records("workouts-finished").count >= 1
        }
        #expect(running.stop() == nil)
        #expect(arrived)
        let reasons = collector.records("zonestream-dlq").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.value.utf8)) as? [String: Any])?["reason"] as? String
        }
        #expect(reasons.sorted() == wantedReasons.sorted())
        let finished = try #require(collector.records("workouts-finished").first)
        #expect(finished.value.contains("\"duration_ms\":4000"))
        #expect(running.processor.metrics.deadLetters(.outOfRange) == 1)
    }

    @Test func idleSessionsFinishOnTheWallClock() throws {
        let broker = try BrokerProcess(partitions: 2)
        defer { broker.stop() }
        var configuration = ProcessorConfiguration.forTest(bootstrap: broker.bootstrapServers, group: "idle")
        configuration.engine.idleTimeoutMs = 1000
        let running = try RunningProcessor(configuration: configuration)
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["workouts-finished"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        try input.send(
            "workout-events", key: "idle-1",
            value: Self.event("idle-1", 1000, #""type":"sample","quantity":"heart_rate","value":100"#))
        try input.send(
            "workout-events", key: "idle-1",
            value: Self.event("idle-1", 4000, #""type":"sample","quantity":"heart_rate","value":120"#))
        try input.flush()
        let finished = collector.wait(seconds: 20) { !$0.records("workouts-finished").isEmpty }
        #expect(running.stop() == nil)
        #expect(finished)
        let summary = try #require(collector.records("workouts-finished").first?.value)
        #expect(summary.contains("\"end_reason\":\"idle_timeout\""))
        #expect(summary.contains("\"end_ts\":4000"))
        #expect(summary.contains("\"duration_ms\":3000"))
    }

    /// Sessions of random heart-rate samples, and what the engine says they finish as.
    static func sessions(prefix: String, count: Int, seed: UInt64) -> (
        records: [(String, [UInt8])], expected: [String: WorkoutSummary]
    ) {
        var random = SplitMix64(seed: seed)
        var records: [(String, [UInt8])] = []
        var store = SessionStore()
        var outputs = EngineOutputs()
        var decoder = WorkoutEventDecoder()
        for index in 0..<count {
            let id = "\(prefix)-\(index)"
            var values: [[UInt8]] = [event(id, 0, #""type":"session_start","activity":"cycling""#)]
            for second in 1...20 {
                values.append(
                    event(
                        id, Int64(second) * 1000,
                        "\"type\":\"sample\",\"quantity\":\"heart_rate\",\"value\":\(80 + Int(random.next() % 100))"))
            }
            values.append(event(id, 21_000, #""type":"session_end""#))
            for value in values {
                records.append((id, value))
                if case .success(let decoded) = decoder.decode(value: value, key: Array(id.utf8)) {
                    store.handle(decoded, wallMs: 0, profiles: [:], outputs: &outputs)
                }
            }
        }
        return (records, Dictionary(uniqueKeysWithValues: outputs.finished.map { ($0.session, $0) }))
    }

    @Test(arguments: BrokerKind.selected)
    func twoInstancesShareThePartitionsAcrossARebalance(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["workouts-finished"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let first = try RunningProcessor(
            configuration: .forTest(bootstrap: broker.bootstrapServers, group: "shared", workers: 1))
        let before = Self.sessions(prefix: "before", count: 12, seed: 1)
        for (key, value) in before.records { try input.send("workout-events", key: key, value: value) }
        try input.flush()
        #expect(collector.wait { $0.records("workouts-finished").count >= 12 })

        let second = try RunningProcessor(
            configuration: .forTest(bootstrap: broker.bootstrapServers, group: "shared", workers: 1))
        // The first instance gives up partitions at the rebalance; wait until both hold some.
        Eventually.holds(within: 30) { first.processor.metrics.rebalances.load(ordering: .relaxed) >= 3 }
        let after = Self.sessions(prefix: "after", count: 24, seed: 2)
        for (key, value) in after.records { try input.send("workout-events", key: key, value: value) }
        try input.flush()
        let complete = collector.wait { $0.records("workouts-finished").count >= 36 }
        #expect(first.stop() == nil)
        #expect(second.stop() == nil)
        #expect(complete)
        #expect(first.processor.metrics.recordsIn.load(ordering: .relaxed) > 0)
        #expect(second.processor.metrics.recordsIn.load(ordering: .relaxed) > 0, "the second instance took partitions")
        var seen: [String: Int] = [:]
        for record in collector.records("workouts-finished") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(record.value.utf8)) as? [String: Any])
            let session = object["session"] as? String ?? ""
            seen[session, default: 0] += 1
            let expected = try #require(before.expected[session] ?? after.expected[session])
            let encoded = try JSONSerialization.jsonObject(with: Data(OutputEncoder.workoutFinished(expected)))
            #expect(ExpectationComparison.jsonEqual(object, encoded), "\(session) differs from the engine's result")
        }
        // At-least-once: every session finished, and any repeat (a replay after a rebalance
        // whose commit the broker refused) has identical content, checked above.
        #expect(seen.count == 36)
    }
}

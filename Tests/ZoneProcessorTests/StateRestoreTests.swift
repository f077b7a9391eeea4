import Foundation
import Logging
import Synchronization
import Testing
import ZoneCodecs
import ZoneEngine
import ZoneKafka
import ZoneProcessor
import ZoneSimulation
import ZoneTestSupport

/// Session state follows its partition through the changelog topic.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct StateRestoreTests {
    /// Splits each session's records in two halves: before and after the hand-over.
    static func halves(_ records: [(String, [UInt8])]) -> ([(String, [UInt8])], [(String, [UInt8])]) {
        var first: [(String, [UInt8])] = []
        var second: [(String, [UInt8])] = []
        var seen: [String: Int] = [:]
        for record in records {
            seen[record.0, default: 0] += 1
            if seen[record.0]! <= 11 { first.append(record) } else { second.append(record) }
        }
        return (first, second)
    }

    static func expectFinished(_ collector: OutputCollector, equal expected: [String: WorkoutSummary]) throws {
        var seen: [String: Int] = [:]
        for record in collector.records("workouts-finished") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(record.value.utf8)) as? [String: Any])
            let session = object["session"] as? String ?? ""
            seen[session, default: 0] += 1
            let wanted = try #require(expected[session])
            let encoded = try JSONSerialization.jsonObject(with: Data(OutputEncoder.workoutFinished(wanted)))
            #expect(ExpectationComparison.jsonEqual(object, encoded), "\(session) differs from an uninterrupted run")
        }
        #expect(seen.count == expected.count)
        #expect(seen.values.allSatisfy { $0 == 1 }, "each workout finished once: \(seen.filter { $0.value > 1 })")
    }

    @Test(arguments: BrokerKind.selected, [false, true])
    func aSessionMovedMidWorkoutFinishesAsIfItNeverMoved(on kind: BrokerKind, commitsLost: Bool) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "zonestream-changelog"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let group = "restore-\(commitsLost)"
        let sessions = ProcessorBehaviourTests.sessions(prefix: "moved", count: 16, seed: 7)
        let (first, second) = Self.halves(sessions.records)

        let before = try RunningProcessor(
            configuration: .forTest(bootstrap: broker.bootstrapServers, group: group, workers: 2))
        for (key, value) in first { try input.send("workout-events", key: key, value: value) }
        try input.flush()
        #expect(collector.wait { $0.records("zonestream-changelog").count >= 16 })
        #expect(before.stop() == nil)
        #expect(collector.records("workouts-finished").isEmpty)
        // Lost commits: a group with no committed offsets reads every record again, and must
        // skip what the restored state already holds (docs/reference/contract.md: a replay changes nothing).
        if commitsLost { try Self.rewindCommits(of: group, partitions: 4, bootstrap: broker.bootstrapServers) }
        let after = try RunningProcessor(
            configuration: .forTest(bootstrap: broker.bootstrapServers, group: group, workers: 2))
        for (key, value) in second { try input.send("workout-events", key: key, value: value) }
        try input.flush()
        #expect(collector.wait { $0.records("workouts-finished").count >= 16 })
        #expect(after.processor.metrics.sessionsRestored.load(ordering: .relaxed) == 16)
        let tombstones = collector.wait {
            Set($0.records("zonestream-changelog").filter(\.isTombstone).compactMap(\.key)).count >= 16
        }
        #expect(after.stop() == nil)
        #expect(tombstones, "every finished session's state is tombstoned")
        try Self.expectFinished(collector, equal: sessions.expected)
    }

    /// Commits offset 0 for every partition of the input in `group` (stopped), as if its
    /// commits had been lost: joins the group as its only member, commits, and leaves (the
    /// mock broker takes no commit from outside a group it knows).
    static func rewindCommits(of group: String, partitions: Int, bootstrap: String) throws {
        var logger = Logger(label: "test-rewind")
        logger.logLevel = .warning
        let consumer = try KafkaConsumer(
            configuration: KafkaConfiguration(bootstrapServers: bootstrap, clientID: "zs-test-rewind"),
            groupID: group, logger: logger,
            properties: ["enable.auto.commit": "false", "session.timeout.ms": "6000", "heartbeat.interval.ms": "250"])
        defer { consumer.close() }
        let joined = AssignmentSeen()
        try consumer.subscribe(["workout-events"], listener: joined)
        #expect(
            Eventually.holds(within: 60) {
                consumer.poll(timeoutMs: 50)
                return joined.count == partitions
            })
        try consumer.commit(
            (0..<Int32(partitions)).map { TopicPartition(topic: "workout-events", partition: $0, offset: 0) })
    }
}

/// How many partitions the group gave a test's consumer.
private final class AssignmentSeen: RebalanceListener, Sendable {
    private let assignedCount = Mutex(0)
    var count: Int { assignedCount.withLock { $0 } }
    func assigned(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        assignedCount.withLock { $0 = partitions.count }
    }
    func revoked(_ partitions: [TopicPartition], consumer: KafkaConsumer) { assignedCount.withLock { $0 = 0 } }
}

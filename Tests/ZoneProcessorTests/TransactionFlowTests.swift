import Foundation
import Logging
import Synchronization
import Testing
import ZoneHarness
import ZoneKafka
import ZoneProcessor
import ZoneSimulation
import ZoneTestSupport

/// The exactly-once API flow on the embedded broker: begin, produce, send offsets, commit,
/// abort, and a zombie fenced by a newer producer with its transactional.id.
///
/// librdkafka 2.0.2's mock cluster accepts these calls but writes no transaction markers and
/// keeps no transactional offset commits, so "no duplicate downstream" cannot be shown here;
/// this proves the flow our exactly-once mode drives, not the broker's side of it.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct TransactionFlowTests {
    static func producer(_ bootstrap: String, id: String) throws -> KafkaProducer {
        try KafkaProducer(
            configuration: KafkaConfiguration(bootstrapServers: bootstrap, clientID: "zs-test-txn"),
            properties: KafkaProducer.transactionalProperties(id: id))
    }

    @Test func beginCommitAbortAndFencing() throws {
        let broker = try MockCluster(brokers: 1)
        for topic in ["workout-events", "zone-changes"] { try broker.createTopic(topic, partitions: 2) }
        var logger = Logger(label: "test-txn")
        logger.logLevel = .warning
        let consumer = try KafkaConsumer(
            configuration: KafkaConfiguration(bootstrapServers: broker.bootstrapServers, clientID: "zs-test-txn"),
            groupID: "txn-group", logger: logger)
        defer { consumer.close() }

        let first = try Self.producer(broker.bootstrapServers, id: "zonestream-test-w0")
        try first.initTransactions()
        try first.beginTransaction()
        let tracker = DeliveryTracker()
        for index in 0..<3 {
            try first.produce(
                topic: "zone-changes", key: Array("k\(index)".utf8), value: Array("v\(index)".utf8), tracker: tracker)
        }
        try first.sendOffsetsToTransaction(
            [TopicPartition(topic: "workout-events", partition: 0, offset: 42)], consumer: consumer)
        try first.commitTransaction()
        first.pollDeliveryReports(timeoutMs: 100)
        #expect(tracker.deliveredCount == 3, "commit flushes the transaction's records")

        try first.beginTransaction()
        try first.produce(topic: "zone-changes", key: nil, value: Array("dropped".utf8), tracker: nil)
        try first.abortTransaction()

        // A newer instance with the same transactional.id fences the older one. The mock bumps
        // no producer epoch, so the broker's answer to the zombie is injected: PRODUCER_FENCED
        // (90) on its EndTxn (ApiKey 26).
        try first.beginTransaction()
        let second = try Self.producer(broker.bootstrapServers, id: "zonestream-test-w0")
        try second.initTransactions()
        try first.produce(topic: "zone-changes", key: nil, value: Array("zombie".utf8), tracker: nil)
        broker.failNextRequests(apiKey: 26, errors: [90])
        var zombieFailure: TransactionFailure?
        do {
            try first.commitTransaction(timeoutMs: 10_000)
        } catch {
            zombieFailure = error.failure
        }
        #expect(zombieFailure == .fatal, "the zombie's commit is refused as fenced")
        try second.beginTransaction()
        try second.produce(topic: "zone-changes", key: nil, value: Array("successor".utf8), tracker: nil)
        try second.commitTransaction()
    }

    /// The processor in exactly-once mode on the mock: every workout finishes once and equal
    /// to the engine's result, and a successor restores the committed state. (The mock's
    /// missing transaction markers mean this shows the flow works, not isolation.)
    @Test func exactlyOnceModeRunsAndHandsOverOnTheMock() throws {
        let broker = try BrokerProcess(partitions: 4)
        defer { broker.stop() }
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "zonestream-changelog"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        var configuration = ProcessorConfiguration.forTest(bootstrap: broker.bootstrapServers, group: "eos")
        configuration.guarantee = .exactlyOnce
        configuration.transactionalIDPrefix = "eos-test"
        let sessions = ProcessorBehaviourTests.sessions(prefix: "eos", count: 12, seed: 3)
        let (first, second) = StateRestoreTests.halves(sessions.records)

        let before = try RunningProcessor(configuration: configuration)
        for (key, value) in first { try input.send("workout-events", key: key, value: value) }
        try input.flush()
        #expect(collector.wait { $0.records("zonestream-changelog").count >= 12 })
        #expect(before.stop() == nil)
        let after = try RunningProcessor(configuration: configuration)
        for (key, value) in second { try input.send("workout-events", key: key, value: value) }
        try input.flush()
        #expect(collector.wait { $0.records("workouts-finished").count >= 12 })
        #expect(after.stop() == nil)
        #expect(after.processor.metrics.sessionsRestored.load(ordering: .relaxed) == 12)
        try StateRestoreTests.expectFinished(collector, equal: sessions.expected)
    }
}

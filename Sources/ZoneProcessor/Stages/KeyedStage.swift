import Foundation
import Logging
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// A keyed-aggregation stage, as Kafka Streams does a re-keying, with two uses (``StageAggregation``):
/// the person stage and the class stage. The workers send each finished workout to the stage's
/// repartition topic, keyed by person or class; the stage consumes it in a group of its own
/// (`<group_id>.<role>`), keeps each key's state per partition, and after each item it counts
/// produces the key's summary and its state to the stage's changelog, which the next owner of
/// the partition restores.
///
/// At-least-once, each batch goes out in two steps before its input offsets are committed:
/// summaries and dead letters first (flushed), then the changed states. A stop between the steps
/// replays items the changelog does not hold yet, so their summaries repeat with identical
/// content; a stop after both replays items the states hold, which count nothing again. No
/// item is counted twice and no summary is lost. Exactly-once, a batch is one transaction
/// (`<transactional_id_prefix>-<instance>-<role>`) of summaries, dead letters, states and input offsets.
final class KeyedStage<Aggregation: StageAggregation>: RebalanceListener, @unchecked Sendable {
    // @unchecked: the mutable state below is touched only on the stage's own thread: in its
    // loop and in the rebalance callbacks librdkafka calls from that loop's poll. `running` is
    // atomic; `thread` is set once by start() before the loop runs and read by stop().
    let configuration: ProcessorConfiguration
    let logger: Logger
    let metrics: ProcessorMetrics
    let consumer: KafkaConsumer
    let producer: KafkaProducer
    /// Reads an input again for the dead letter of an output the broker refused.
    let inputs: InputRecordFetcher
    let restorer: ChangelogReader
    let running = Atomic<Bool>(true)
    private var thread: JoinableThread?
    /// Exactly-once: the producer is transactional and a transaction is always open.
    let transactional: Bool
    /// Told when the stage cannot go on (a transaction failed): the processor stops.
    let onFatal: @Sendable (ProcessorError) -> Void

    /// What the stage counts, and how.
    var aggregation: Aggregation
    /// Per owned partition of the repartition topic: its keys' states.
    var tables: [Int32: [String: Aggregation.State]] = [:]
    /// Per partition: the next offset to commit once the current batch is out.
    var nextOffsets: [Int32: Int64] = [:]
    /// States changed in the current batch, by partition and key, written in its second step.
    var changedLogs: [Int32: Set<String>] = [:]
    /// Commits each batch, as the workers commit their epochs (``Committer``).
    var committer: any Committer

    /// Whether records were handled since the last commit.
    var hasUncommitted = false
    var tracker: DeliveryTracker
    /// This stage's summaries, restores, deliveries and lag among the processor's metrics.
    let figures: StageMetrics
    var limitWarnings: RepeatedWarning
    /// When idle keys were last looked for (wall-clock ms).
    var lastIdleSweepMs: Int64 = 0
    /// Summaries held after a stall of the stage's thread, until the group has had time to
    /// take its partitions away (``StallHold``).
    var stallHold: StallHold<HeldSummary>

    /// The consumer group of a stage, beside the workers' group.
    static func groupID(of configuration: ProcessorConfiguration, role: String) -> String {
        configuration.groupID + "." + role
    }

    /// The stage's topics: its repartition input, its changelog and its output.
    var inputTopic: String { aggregation.role.input.name(in: configuration.topics) }
    var changelogTopic: String { aggregation.role.changelog.name(in: configuration.topics) }

    init(
        _ aggregation: Aggregation, configuration: ProcessorConfiguration, metrics: ProcessorMetrics, logger: Logger,
        inputs: InputRecordFetcher, onFatal: @escaping @Sendable (ProcessorError) -> Void
    ) throws {
        self.aggregation = aggregation
        self.inputs = inputs
        limitWarnings = RepeatedWarning(
            "\(aggregation.role.name) stage full: new \(aggregation.role.keysName)' records are dead-lettered as \(aggregation.role.limitReason.rawValue)"
        )
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.onFatal = onFatal
        figures = aggregation.role.stageMetrics(in: metrics)
        tracker = DeliveryTracker(latency: figures.deliveries)
        stallHold = StallHold(
            graceMs: configuration.stallGraceMs, capacity: Self.heldSummariesLimit,
            nowMs: WallClock.nowMs())
        transactional = configuration.guarantee == .exactlyOnce
        // One record per finished workout: long fetch waits, so an idle stage costs the brokers
        // two empty fetches a second instead of the workers' hundreds (a broker answers a fetch
        // as soon as data arrives, so summaries are not held back by it).
        // Its lag from librdkafka's statistics, as the workers' consumer reports its own.
        let lag = figures.lag
        let statistics: (@Sendable (String) -> Void)? =
            configuration.statisticsIntervalMs > 0 ? { @Sendable text in lag.report(statisticsJSON: text) } : nil
        var properties = StageFetching.lowRate
        properties["statistics.interval.ms"] = "\(configuration.statisticsIntervalMs)"
        consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: Self.groupID(of: configuration, role: aggregation.role.name),
            logger: logger, properties: configuration.memberProperties(properties), statistics: statistics)
        if transactional {
            do {
                producer = try TransactionCommitter.producer(
                    id: configuration.transactionalID(role: aggregation.role.name), configuration: configuration)
            } catch {
                throw ProcessorError(.startingTransactions, reason: "\(aggregation.role.name) stage: \(error)")
            }
        } else {
            producer = try KafkaProducer(configuration: configuration.kafka)
        }
        committer = Self.committer(
            role: aggregation.role, configuration: configuration, consumer: consumer, producer: producer,
            deadLetters: DeadLetterPolicy(
                producer: producer, topics: configuration.topics, metrics: metrics, logger: logger, inputs: inputs),
            latency: figures.deliveries, logger: logger)
        restorer = try ChangelogReader(
            configuration: configuration, topic: aggregation.role.changelog.name(in: configuration.topics),
            logger: logger,
            batchSize: 1024)
    }

    /// Joins the stage's group and starts its thread.
    func start() throws(KafkaError) {
        try consumer.subscribe([inputTopic], listener: self)
        thread = JoinableThread(name: "zs-\(aggregation.role.name)") { [self] in loop() }
    }

    /// Finishes the current batch, commits it, leaves the group and joins the thread.
    func stop() {
        running.store(false, ordering: .releasing)
        thread?.join()
    }

    private func loop() {
        let interval = Double(configuration.commitIntervalMs) / 1000
        var nextCommit = Date().addingTimeInterval(interval)
        while running.load(ordering: .acquiring) {
            consumer.poll(timeoutMs: 100) { record in handle(record) }
            if isHolding() { continue }
            sendHeldSummaries()
            if Date() >= nextCommit {
                finishBatch()
                nextCommit = Date().addingTimeInterval(interval)
            }
        }
        // Stopping in a hold: the partitions may be another member's; their next owner reads
        // what was counted since the last commit again.
        if !isHolding() {
            sendHeldSummaries()
            finishBatch()
        }
        // Leaving the group revokes every partition here, on this thread (revoked(_:consumer:)).
        consumer.close()
        try? producer.flush(timeoutMs: 10_000)
    }

    // MARK: Rebalances

    func assigned(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        for partition in partitions.map(\.partition) {
            do {
                let started = DispatchTime.now().uptimeNanoseconds
                tables[partition] = try restore(partition: partition)
                figures.countRestore(
                    keys: tables[partition]?.count ?? 0, nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
                logger.debug(
                    "stage table restored",
                    metadata: [
                        "stage": "\(aggregation.role.name)", "partition": .stringConvertible(partition),
                        "keys": .stringConvertible(tables[partition]?.count ?? 0),
                    ])
            } catch {
                // Stopping: the restores left are moot, and nothing went wrong.
                guard running.load(ordering: .acquiring) else {
                    logger.debug("stopping before the stage's tables were restored")
                    return
                }
                // Another application's state: a layout to fix, which no rebalance mends. The
                // instance stops (exit 78) with the topic, partition, offset and owner named.
                if error.isRefusedLayout { return onFatal(error) }
                // Not owned without its state: its records are left to the next owner, and the
                // group gives the partition again after the next rebalance.
                logger.error(
                    "stage table not restored; its partition is skipped",
                    metadata: ["stage": "\(aggregation.role.name)", "error": "\(error)"])
            }
        }
    }

    func revoked(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        // After a stall the partitions may be another member's already: what was counted since
        // the last commit is dropped unsent, and their next owner reads it again.
        if isHolding() {
            for partition in partitions.map(\.partition) {
                stallHold.drop(partition: partition)
                changedLogs[partition] = nil
            }
        } else {
            finishBatch()
        }
        for partition in partitions.map(\.partition) {
            tables[partition] = nil
            nextOffsets[partition] = nil
        }
    }
}

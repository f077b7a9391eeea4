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
    private let restorer: ChangelogReader
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
    var commitFailures = RepeatedWarning("stage commit failed; will retry")

    /// Whether records were handled since the last commit.
    var hasUncommitted = false
    var tracker: DeliveryTracker
    /// This stage's summaries, restores, deliveries and lag among the processor's metrics.
    let figures: StageMetrics
    var limitWarnings: RepeatedWarning
    /// When idle keys were last looked for (wall-clock ms).
    var lastIdleSweepMs: Int64 = 0


    /// The consumer group of a stage, beside the workers' group.
    static func groupID(of configuration: ProcessorConfiguration, role: String) -> String {
        configuration.groupID + "." + role
    }

    /// The stage's topics: its repartition input, its changelog and its output.
    var inputTopic: String { aggregation.input.name(in: configuration.topics) }
    var changelogTopic: String { aggregation.changelog.name(in: configuration.topics) }

    init(
        _ aggregation: Aggregation, configuration: ProcessorConfiguration, metrics: ProcessorMetrics, logger: Logger,
        onFatal: @escaping @Sendable (ProcessorError) -> Void
    ) throws {
        self.aggregation = aggregation
        limitWarnings = RepeatedWarning(
            "\(aggregation.role) stage full: new \(aggregation.keysName)' records are dead-lettered as \(aggregation.limitReason.rawValue)"
        )
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.onFatal = onFatal
        figures = aggregation.figures(in: metrics)
        tracker = DeliveryTracker(latency: figures.deliveries)
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
            configuration: configuration.kafka, groupID: Self.groupID(of: configuration, role: aggregation.role),
            logger: logger, properties: configuration.memberProperties(properties), statistics: statistics)
        if transactional {
            let id = configuration.transactionalID(role: aggregation.role)
            producer = try KafkaProducer(
                configuration: configuration.kafka,
                properties: KafkaProducer.transactionalProperties(
                    id: id, timeoutMs: configuration.transactionTimeoutMs))
            do {
                try producer.initTransactions()
                try producer.beginTransaction()
            } catch {
                throw ProcessorError(.startingTransactions, reason: "\(aggregation.role) stage: \(error)")
            }
        } else {
            producer = try KafkaProducer(configuration: configuration.kafka)
        }
        restorer = try ChangelogReader(
            configuration: configuration, topic: aggregation.changelog.name(in: configuration.topics), logger: logger,
            batchSize: 1024)
    }

    /// Joins the stage's group and starts its thread.
    func start() throws(KafkaError) {
        try consumer.subscribe([inputTopic], listener: self)
        thread = JoinableThread(name: "zs-\(aggregation.role)") { [self] in loop() }
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
            if Date() >= nextCommit {
                finishBatch()
                nextCommit = Date().addingTimeInterval(interval)
            }
        }
        finishBatch()
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
                        "stage": "\(aggregation.role)", "partition": .stringConvertible(partition),
                        "keys": .stringConvertible(tables[partition]?.count ?? 0),
                    ])
            } catch {
                // Stopping: the restores left are moot, and nothing went wrong.
                guard running.load(ordering: .acquiring) else {
                    logger.debug("stopping before the stage's tables were restored")
                    return
                }
                // Not owned without its state: its records are left to the next owner, and the
                // group gives the partition again after the next rebalance.
                logger.error(
                    "stage table not restored; its partition is skipped",
                    metadata: ["stage": "\(aggregation.role)", "error": "\(error)"])
            }
        }
    }

    func revoked(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        finishBatch()
        for partition in partitions.map(\.partition) {
            tables[partition] = nil
            nextOffsets[partition] = nil
        }
    }

    // MARK: Records

    private func handle(_ record: KafkaRecord) {
        let partition = record.partition
        guard record.error == nil, tables[partition] != nil else { return }
        if let next = nextOffsets[partition], record.offset < next { return }
        let origin = OutputOrigin(
            aggregation.input, of: configuration.topics, partition: partition, offset: record.offset,
            key: record.key.map { Array($0) }, value: record.value.map { Array($0) })
        switch aggregation.decode(value: record.value, key: record.key) {
        case .failure(let rejection):
            deadLetter(rejection, origin: origin)
        case .success(let (key, item)):
            guard tables[partition]?[key] != nil || hasRoom(forNewKey: key, origin: origin) else { break }
            var state = tables[partition]?[key] ?? aggregation.emptyState(key: key)
            if let output = aggregation.count(item, into: &state) {
                tables[partition]?[key] = state
                changedLogs[partition, default: []].insert(key)
                produce(
                    topic: aggregation.outputTopic(in: configuration.topics), key: output.key, value: output.value,
                    origin: origin)
                figures.countSummary()
            }
        }
        nextOffsets[partition] = record.offset + 1
        hasUncommitted = true
    }

    /// Produces an output of `origin`.
    func produce(
        topic: String, key: String, value: [UInt8]?, partition: Int32? = nil, origin: OutputOrigin,
        header: KafkaHeader? = nil
    ) {
        let context = origin.context(.output)
        do {
            try producer.produce(
                topic: topic, key: Array(key.utf8), value: value, tracker: tracker, partition: partition,
                context: context, input: origin.input, header: header)
        } catch {
            refused(topic: topic, error: error, origin: origin)
        }
    }

    func deadLetter(_ rejection: Rejection, origin: OutputOrigin) {
        let record = OutputEncoder.deadLetter(
            rejection, topic: origin.topic, partition: origin.partition, offset: origin.offset, key: origin.key,
            value: origin.value)
        do {
            try producer.produce(
                topic: configuration.topics.deadLetters, key: record.key, value: record.value, tracker: tracker)
        } catch {
            logger.error(
                "dead letter refused; the record stays at its offset",
                metadata: [
                    "topic": "\(origin.topic)", "partition": .stringConvertible(origin.partition),
                    "offset": .stringConvertible(origin.offset), "error": "\(error.message)",
                ])
        }
    }

    /// An output refused for good: its input is dead-lettered as `output_rejected`.
    func refused(topic: String, error: KafkaError, origin: OutputOrigin) {
        deadLetter(
            Rejection(.outputRejected, "\(topic) refused the record: \(error.message) (code \(error.code))"),
            origin: origin)
    }

    // MARK: Committing
}

/// The cap on keys (`max_persons`, `max_classes`): the stage holds every key of its partitions,
/// so a gateway that puts a device or session id in `person` or `class` would otherwise grow it
/// without end.
extension KeyedStage {
    /// Whether a new key fits: under the cap, or once idle keys are removed (at most once a
    /// minute). Otherwise the record is dead-lettered with the aggregation's limit reason,
    /// counted and logged. Only the cap removes keys: a summary counts back from the key's
    /// own latest item, not from now, so removing them sooner would change what a replay of
    /// older workouts produces.
    func hasRoom(forNewKey key: String, origin: OutputOrigin) -> Bool {
        if keyCount < aggregation.capacity { return true }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        if now - lastIdleSweepMs >= 60_000 {
            lastIdleSweepMs = now
            removeIdleKeys(now: now)
        }
        if keyCount < aggregation.capacity { return true }
        aggregation.countRefused(in: metrics)
        limitWarnings.log(to: logger, metadata: ["limit": .stringConvertible(aggregation.capacity)])
        deadLetter(
            Rejection(
                aggregation.limitReason,
                "the \(aggregation.role) stage holds its most \(aggregation.keysName) (\(aggregation.capacity)), \(aggregation.idleRule)"
            ), origin: origin)
        return false
    }

    var keyCount: Int { tables.values.reduce(0) { $0 + $1.count } }

    /// Removes idle keys from the tables; their changelog records become tombstones with the
    /// batch's changed states.
    private func removeIdleKeys(now: Int64) {
        for (partition, table) in tables {
            let idle = table.filter { aggregation.isIdle($0.value, now: now) }.map(\.key)
            guard !idle.isEmpty else { continue }
            for key in idle { tables[partition]?[key] = nil }
            changedLogs[partition, default: []].formUnion(idle)
            logger.info(
                "idle keys removed to stay within the stage's cap",
                metadata: [
                    "stage": "\(aggregation.role)", "partition": .stringConvertible(partition),
                    "keys": .stringConvertible(idle.count),
                ])
        }
        aggregation.recordKeys(keyCount, in: metrics)
    }

    /// The states of `partition`, read from the changelog's start to the end it had when the
    /// read began: the latest record per key, a null value removing the key.
    func restore(partition: Int32) throws(ProcessorError) -> [String: Aggregation.State] {
        var states: [String: Aggregation.State] = [:]
        try restorer.read(
            partition: partition, timeoutMs: 300_000,
            isStopping: { [self] in
                !running.load(ordering: .acquiring)
            }
        ) { record in
            guard let key = record.key.map({ String(decoding: $0, as: UTF8.self) }) else { return }
            guard let value = record.value else {
                states[key] = nil
                return
            }
            do {
                let restored = try aggregation.restore(value)
                guard restored.key == key else {
                    logger.error(
                        "stage changelog record refused: its key is not its state's",
                        metadata: [
                            "stage": "\(aggregation.role)", "partition": .stringConvertible(record.partition),
                            "offset": .stringConvertible(record.offset),
                        ])
                    return
                }
                states[key] = restored.state
            } catch {
                metrics.countChangelogRecordRefused()
                logger.error(
                    "stage changelog record refused",
                    metadata: [
                        "stage": "\(aggregation.role)", "partition": .stringConvertible(record.partition),
                        "offset": .stringConvertible(record.offset), "error": "\(error)",
                    ])
            }
        }
        return states
    }
}

import Foundation
import Logging
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// The topology's second keyed stage (docs/contract.md, `person-summaries`), as Kafka
/// Streams does a re-keying: the workers send each finished workout with a person to the
/// repartition topic, keyed by the person; this stage consumes it in a group of its own
/// (`<group_id>.people`), keeps each person's log per partition, and after each workout it
/// counts produces the person's summary and their log to the person changelog, which the
/// next owner of the partition restores.
///
/// At-least-once, each batch goes out in two steps before its input offsets are committed:
/// summaries and dead letters first (flushed), then the changed logs. A stop between the steps
/// replays workouts the changelog does not hold yet, so their summaries repeat with identical
/// content; a stop after both replays workouts the logs hold, which count nothing again. No
/// workout is counted twice and no summary is lost. Exactly-once, a batch is one transaction
/// (`<transactional_id_prefix>-<instance>-people`) of summaries, dead letters, logs and input offsets.
final class PersonStage: RebalanceListener, @unchecked Sendable {
    // @unchecked: the mutable state below is touched only on the stage's own thread: in its
    // loop and in the rebalance callbacks librdkafka calls from that loop's poll. `running` is
    // atomic; `thread` is set once by start() before the loop runs and read by stop().
    let configuration: ProcessorConfiguration
    let logger: Logger
    let metrics: ProcessorMetrics
    let consumer: KafkaConsumer
    let producer: KafkaProducer
    private let restorer: PersonTableRestorer
    let running = Atomic<Bool>(true)
    private var thread: JoinableThread?
    /// Exactly-once: the producer is transactional and a transaction is always open.
    let transactional: Bool
    /// Told when the stage cannot go on (a transaction failed): the processor stops.
    let onFatal: @Sendable (ProcessorError) -> Void

    /// Per owned partition of the repartition topic: its persons' logs.
    var tables: [Int32: [String: PersonTrainingLog]] = [:]
    /// Per partition: the next offset to commit once the current batch is out.
    var nextOffsets: [Int32: Int64] = [:]
    /// Logs changed in the current batch, by partition and person, written in its second step.
    var changedLogs: [Int32: Set<String>] = [:]
    var commitFailures = RepeatedWarning("person stage commit failed; will retry")
    var personLimitWarnings = RepeatedWarning(
        "person stage full (max_persons): new persons' workouts are dead-lettered as person_limit")
    /// When idle persons were last looked for (wall-clock ms).
    var lastIdleSweepMs: Int64 = 0
    /// Whether records were handled since the last commit.
    var hasUncommitted = false
    var tracker = DeliveryTracker()
    var codec = PersonWorkoutCodec()
    var writer = PersonSummaryWriter()

    /// Fetching for a topic of a few records a second: long waits, small pre-fetch queues.
    static let lowRateFetching = [
        "fetch.wait.max.ms": "500", "queued.min.messages": "1000", "queued.max.messages.kbytes": "1024",
    ]

    /// The consumer group of the stage, beside the workers' group.
    static func groupID(of configuration: ProcessorConfiguration) -> String { configuration.groupID + ".people" }

    init(
        configuration: ProcessorConfiguration, metrics: ProcessorMetrics, logger: Logger,
        onFatal: @escaping @Sendable (ProcessorError) -> Void
    ) throws {
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.onFatal = onFatal
        transactional = configuration.guarantee == .exactlyOnce
        // One record per finished workout: long fetch waits, so an idle stage costs the brokers
        // two empty fetches a second instead of the workers' hundreds (a broker answers a fetch
        // as soon as data arrives, so summaries are not held back by it).
        consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: Self.groupID(of: configuration), logger: logger,
            properties: configuration.memberProperties(Self.lowRateFetching))
        if transactional {
            let id = configuration.transactionalID(role: "people")
            producer = try KafkaProducer(
                configuration: configuration.kafka,
                properties: KafkaProducer.transactionalProperties(
                    id: id, timeoutMs: configuration.transactionTimeoutMs))
            do {
                try producer.initTransactions()
                try producer.beginTransaction()
            } catch {
                throw ProcessorError(.startingTransactions, reason: "person stage: \(error)")
            }
        } else {
            producer = try KafkaProducer(configuration: configuration.kafka)
        }
        restorer = try PersonTableRestorer(configuration: configuration, logger: logger)
    }

    /// Joins the stage's group and starts its thread.
    func start() throws(KafkaError) {
        try consumer.subscribe([configuration.topics.personWorkouts], listener: self)
        thread = JoinableThread(name: "zs-people") { [self] in loop() }
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
                tables[partition] = try restorer.restore(partition: partition, timeoutMs: 300_000) { [self] in
                    !running.load(ordering: .acquiring)
                }
                logger.debug(
                    "person table restored",
                    metadata: [
                        "partition": .stringConvertible(partition),
                        "persons": .stringConvertible(tables[partition]?.count ?? 0),
                    ])
            } catch {
                // Stopping: the restores left are moot, and nothing went wrong.
                guard running.load(ordering: .acquiring) else {
                    logger.debug("stopping before the person tables were restored")
                    return
                }
                // Not owned without its state: its records are left to the next owner, and the
                // group gives the partition again after the next rebalance.
                logger.error("person table not restored; its partition is skipped", metadata: ["error": "\(error)"])
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
            .personWorkouts, of: configuration.topics, partition: partition, offset: record.offset,
            key: record.key.map { Array($0) }, value: record.value.map { Array($0) })
        switch codec.decode(value: record.value, key: record.key) {
        case .failure(let rejection):
            deadLetter(rejection, origin: origin)
        case .success(let (person, workout)):
            guard tables[partition]?[person] != nil || hasRoom(forNewPerson: person, origin: origin) else { break }
            var log = tables[partition]?[person] ?? PersonTrainingLog(person: person)
            if let summary = log.count(workout) {
                tables[partition]?[person] = log
                changedLogs[partition, default: []].insert(person)
                produce(
                    topic: configuration.topics.personSummaries, key: person, value: writer.write(summary),
                    origin: origin)
            }
        }
        nextOffsets[partition] = record.offset + 1
        hasUncommitted = true
    }

    /// Produces an output of `origin`.
    func produce(topic: String, key: String, value: [UInt8]?, partition: Int32? = nil, origin: OutputOrigin) {
        let context = origin.context(.output)
        do {
            try producer.produce(
                topic: topic, key: Array(key.utf8), value: value, tracker: tracker, partition: partition,
                context: context, input: origin.input)
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

/// The cap on persons (`max_persons`): the stage holds every person of its partitions whose
/// workouts it counts, so a gateway that puts a device or session id in `person` would
/// otherwise grow it without end.
extension PersonStage {
    /// Whether a new person fits: under the cap, or once persons with no workout in the 28 days
    /// before now are removed (at most once a minute). Otherwise the workout is dead-lettered
    /// as `person_limit`, counted and logged. Only the cap removes persons: a summary counts
    /// back from the person's own latest workout, not from now, so removing them sooner would
    /// change what a replay of older workouts produces.
    func hasRoom(forNewPerson person: String, origin: OutputOrigin) -> Bool {
        if personCount < configuration.maxPersons { return true }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        if now - lastIdleSweepMs >= 60_000 {
            lastIdleSweepMs = now
            removeIdlePersons(now: now)
        }
        if personCount < configuration.maxPersons { return true }
        metrics.countPersonRefused()
        personLimitWarnings.log(to: logger, metadata: ["max_persons": .stringConvertible(configuration.maxPersons)])
        deadLetter(
            Rejection(
                .personLimit,
                "the person stage holds max_persons (\(configuration.maxPersons)) persons, none without a workout in the last 28 days"
            ), origin: origin)
        return false
    }

    var personCount: Int { tables.values.reduce(0) { $0 + $1.count } }

    /// Removes persons idle for 28 days from the tables; their changelog records become
    /// tombstones with the batch's changed logs.
    private func removeIdlePersons(now: Int64) {
        for (partition, table) in tables {
            let idle = table.filter { $0.value.isIdle(at: now) }.map(\.key)
            guard !idle.isEmpty else { continue }
            for person in idle { tables[partition]?[person] = nil }
            changedLogs[partition, default: []].formUnion(idle)
            logger.info(
                "persons idle for 28 days removed to stay within max_persons",
                metadata: ["partition": .stringConvertible(partition), "persons": .stringConvertible(idle.count)])
        }
        metrics.recordPersons(personCount)
    }
}

public import CoreMetrics
import Foundation
public import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// The stream processor: consumes `workout-events` in a consumer group, runs the zone engine
/// per session on worker threads that own their partitions, and produces `zone-changes`,
/// `workouts-finished` and `zonestream-dlq`; its person stage turns finished workouts into
/// `person-summaries` (``PersonStage``).
///
/// Lifecycle: ``run()`` blocks until ``stop()`` is called (from a signal handler or a test);
/// shutdown order is stop fetching, drain, flush, commit, close.
public final class ZoneProcessor: Sendable {
    public let configuration: ProcessorConfiguration
    public let metrics: ProcessorMetrics
    public let profiles: ProfileTable
    /// The live state of this instance's sessions, published by the workers at each commit
    /// interval when `publishesLiveSessions` is on; read it from any thread.
    public let sessionDirectory: LiveSessionDirectory
    /// Every person's latest summary, read from `person-summaries` when
    /// `publishesLiveSessions` is on; read it from any thread.
    public let personSummaries = PersonSummaryTable()
    private let lagReporter: ConsumerLagReporter
    let logger: Logger
    let state = NIOLockedValueBox(State.created)
    private let fatalError = NIOLockedValueBox<ProcessorError?>(nil)
    /// False while librdkafka's statistics say no broker is connected.
    let brokerReachable = Atomic<Bool>(true)
    /// The readiness last logged, so each change is logged once.
    let loggedReadiness = NIOLockedValueBox<Readiness?>(nil)

    /// Where the processor is in its life, in one place.
    enum State: Sendable {
        case created
        /// Connecting and catching up with the profile table.
        case starting
        /// In the group; `assigned` once the group has given it its first partitions.
        case running(assigned: Bool)
        /// ``stop()`` was called: draining, committing, leaving the group.
        case stopping
        case stopped
    }
    private let components = NIOLockedValueBox<Components?>(nil)

    struct Components: @unchecked Sendable {
        // @unchecked: every member is itself Sendable or thread-safe; set once by run().
        let consumer: KafkaConsumer
        let producer: KafkaProducer
        let workers: [PartitionWorker]
        let profileReader: ProfileReader
    }

    /// `metricsFactory`: where metrics are exported (default: the process-wide `MetricsSystem`).
    public init(
        configuration: ProcessorConfiguration, logger: Logger,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) {
        var configuration = configuration
        // librdkafka's log lines of every client the processor makes go through its logger.
        configuration.kafka.logger = configuration.kafka.logger ?? logger
        configuration.transactionalIdentity = configuration.instanceID ?? ProcessorConfiguration.drawnIdentity()
        self.configuration = configuration
        profiles = ProfileTable(limit: configuration.maxProfiles)
        self.logger = logger
        metrics = ProcessorMetrics(factory: metricsFactory)
        sessionDirectory = LiveSessionDirectory(workers: configuration.workers)
        lagReporter = ConsumerLagReporter(factory: metricsFactory)
    }

    /// True once the profile table has caught up, the group has given this instance its
    /// partitions, and their state is restored, so it is consuming (an instance with no
    /// partitions is ready too: it has nothing to restore). False again while stopping.
    public var isReady: Bool { readiness.isReady }

    /// Live sessions on this instance.
    public var liveSessions: Int {
        components.withLockedValue { $0?.workers.reduce(0) { $0 + $1.liveSessions.load(ordering: .relaxed) } ?? 0 }
    }

    /// Output records queued in the producer and not yet delivered.
    public var outputsInFlight: Int { components.withLockedValue { $0?.producer.queueLength ?? 0 } }

    /// Asks ``run()`` to shut down cleanly. Safe from any thread, any number of times.
    public func stop() {
        state.withLockedValue { state in
            if case .stopped = state { return }
            state = .stopping
        }
    }

    private var isStopping: Bool {
        switch state.withLockedValue({ $0 }) {
        case .stopping, .stopped: true
        case .created, .starting, .running: false
        }
    }

    /// Moves to `next` unless the processor is stopping already.
    private func advance(to next: State) {
        state.withLockedValue { state in
            switch state {
            case .stopping, .stopped: return
            case .created, .starting, .running: state = next
            }
        }
    }

    /// Runs until ``stop()``; throws a ``KafkaError`` if it could not start, or the
    /// ``ProcessorError`` of the first worker that could not go on.
    public func run() throws {
        advance(to: .starting)
        defer { state.withLockedValue { $0 = .stopped } }
        let producer = try KafkaProducer(configuration: configuration.kafka)
        if configuration.createTopicPartitions > 0 { try createMissingTopics(using: producer) }
        let profileReader = try ProfileReader(
            configuration: configuration, table: profiles, metrics: metrics, logger: logger)
        profileReader.start()
        if !profileReader.waitUntilCaughtUp(
            timeoutMs: configuration.profilesCatchUpMs, unless: { [self] in isStopping })
        {
            logger.warning("profile table not caught up in time; starting anyway")
        }
        if isStopping {
            // Stopped while starting: nothing was consumed, so nothing to commit.
            profileReader.stop()
            logger.info("processor stopped")
            return
        }
        let statistics: (@Sendable (String) -> Void)? =
            configuration.statisticsIntervalMs > 0
            ? { @Sendable [lagReporter, self] text in
                lagReporter.report(statisticsJSON: text)
                if let up = ConsumerLagReader.anyBrokerUp(text) { self.brokerReachable.store(up, ordering: .relaxed) }
            } : nil
        let consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: configuration.groupID, logger: logger,
            properties: configuration.memberProperties([
                "statistics.interval.ms": "\(configuration.statisticsIntervalMs)"
            ]),
            statistics: statistics)
        let context = WorkerContext(
            configuration: configuration, consumer: consumer, producer: producer, profiles: profiles,
            metrics: metrics, directory: sessionDirectory, budget: SessionBudget(limit: configuration.maxLiveSessions),
            logger: logger,
            isStopping: { [self] in isStopping },
            onFatal: { [self] error in
                fatalError.withLockedValue { $0 = $0 ?? error }
                stop()
            })
        let workers = (0..<max(1, configuration.workers)).map {
            PartitionWorker(index: $0, queue: consumer.makeQueue(batchSize: configuration.batchSize), context: context)
        }
        components.withLockedValue {
            $0 = Components(consumer: consumer, producer: producer, workers: workers, profileReader: profileReader)
        }
        let deliveryRunning = Atomic<Bool>(true)
        let deliveryThread = JoinableThread(name: "zs-delivery") {
            while deliveryRunning.load(ordering: .relaxed) { producer.pollDeliveryReports(timeoutMs: 50) }
        }
        let personStage = try PersonStage(configuration: configuration, logger: logger) { [self] error in
            fatalError.withLockedValue { $0 = $0 ?? error }
            stop()
        }
        try personStage.start()
        for worker in workers { worker.start() }
        let trimmer = HeapTrimmer(intervalMs: configuration.heapTrimIntervalMs)
        defer { trimmer.stop() }
        // Every live session of the group for the endpoint, from the changelog all write.
        if configuration.publishesLiveSessions {
            do {
                try sessionDirectory.group.start(
                    configuration: configuration, profiles: profiles,
                    revisions: { [sessionDirectory] in sessionDirectory.nextRevision() }, logger: logger)
            } catch {
                logger.warning(
                    "group-wide live views off: the changelog topic cannot be read", metadata: ["error": "\(error)"])
            }
        }
        defer { sessionDirectory.group.stop() }
        if configuration.publishesLiveSessions {
            do {
                try personSummaries.start(configuration: configuration, logger: logger)
            } catch {
                logger.warning(
                    "/people views off: the person-summaries topic cannot be read", metadata: ["error": "\(error)"])
            }
        }
        defer { personSummaries.stop() }

        let listener = RebalanceHandler(workers: workers, metrics: metrics, logger: logger) { [self] in
            advance(to: .running(assigned: true))
        }
        advance(to: .running(assigned: false))
        try consumer.subscribe([configuration.topics.workoutEvents], listener: listener)
        logger.info(
            "processor running",
            metadata: ["workers": .stringConvertible(workers.count), "group": "\(configuration.groupID)"])
        while !isStopping {
            consumer.poll(timeoutMs: 100)
            logReadinessChange()
            // Fenced (another instance took this one's group.instance.id), or failed for good:
            // this instance gets no more records, so it stops and says why.
            if let fatal = consumer.fatalError {
                fatalError.withLockedValue { $0 = $0 ?? ProcessorError(.consuming, reason: "\(fatal)") }
                stop()
            }
        }

        // Shutdown: leaving the group revokes every partition, so each worker commits its
        // delivered work; then workers stop, the producer flushes, and the clients close.
        logReadinessChange()
        logger.info("processor stopping")
        consumer.close()
        let done = workers.map { worker in
            let semaphore = DispatchSemaphore(value: 0)
            worker.post(.stop(done: semaphore))
            return semaphore
        }
        for semaphore in done { semaphore.wait() }
        for worker in workers { worker.join() }
        personStage.stop()
        try? producer.flush(timeoutMs: 10_000)
        deliveryRunning.store(false, ordering: .releasing)
        deliveryThread.join()
        profileReader.stop()
        components.withLockedValue { $0 = nil }
        if let error = fatalError.withLockedValue({ $0 }) { throw error }
        logger.info("processor stopped")
    }
}

extension ZoneProcessor {
    /// Creates the topics a real cluster is missing (the profile table compacted).
    func createMissingTopics(using producer: KafkaProducer) throws {
        let specifications = configuration.topics.specifications(
            partitions: configuration.createTopicPartitions, replicationFactor: configuration.createTopicReplication)
        let created = try TopicAdmin.createMissing(specifications, using: producer)
        if !created.isEmpty { logger.info("created topics", metadata: ["topics": "\(created)"]) }
    }
}

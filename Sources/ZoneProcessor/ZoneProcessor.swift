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
/// `person-summaries` and `class-summaries` (``KeyedStage``).
///
/// Lifecycle: ``run()`` blocks until ``stop()`` is called (from a signal handler or a test);
/// shutdown order is stop fetching, drain, flush, commit, close.
public final class ZoneProcessor: Sendable {
    public let configuration: ProcessorConfiguration
    public let metrics: ProcessorMetrics
    public let profiles: ProfileTable
    /// Each class's plan, from `class-plans`.
    public let classPlans: ClassPlanTable
    /// The live state of this instance's sessions, published by the workers at each commit
    /// interval when `publishesLiveSessions` is on; read it from any thread.
    public let sessionDirectory: LiveSessionDirectory
    /// Follows the changelog of the partitions no worker here owns: their warm standbys, and
    /// the group's sessions for the views.
    let changelogFollower: ChangelogFollower
    /// Every person's latest summary, read from `person-summaries` when
    /// `publishesLiveSessions` is on; read it from any thread.
    public let personSummaries = SummaryTable(.person)
    /// Each class's latest day's summary, from `class-summaries`, for `/classes/{class}`.
    public let classSummaries = SummaryTable(.classDay)
    let logger: Logger
    let state = NIOLockedValueBox(State.created)
    let fatalError = NIOLockedValueBox<ProcessorError?>(nil)
    /// False while librdkafka's statistics say no broker is connected.
    let brokerReachable = Atomic<Bool>(true)
    /// Whether a rebalance is under way (for readiness).
    let rebalanceClock = RebalanceClock()
    /// Whether the instance has consumed its partitions once (every assigned one restored):
    /// from then on it stays ready through rebalances and restores (``Readiness``).
    let hasProcessed = Atomic<Bool>(false)
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
    let components = NIOLockedValueBox<Components?>(nil)

    struct Components: @unchecked Sendable {
        // @unchecked: every member is itself Sendable or thread-safe; set once by run().
        let consumer: KafkaConsumer
        let producer: KafkaProducer
        let workers: [PartitionWorker]
        let tableReaders: [TableReader]
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
        classPlans = ClassPlanTable(limit: configuration.maxClassPlans)
        self.logger = logger
        metrics = ProcessorMetrics(factory: metricsFactory)
        sessionDirectory = LiveSessionDirectory(workers: configuration.workers)
        changelogFollower = ChangelogFollower(views: sessionDirectory.group)
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

    var isStopping: Bool {
        switch state.withLockedValue({ $0 }) {
        case .stopping, .stopped: true
        case .created, .starting, .running: false
        }
    }

    /// Moves to `next` unless the processor is stopping already.
    func advance(to next: State) {
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
        try TopicLayout.prepare(configuration, using: producer, logger: logger)
        guard let tableReaders = try startTables(producer: producer) else { return }
        let consumer = try makeConsumer()
        let tableCoverage = TableCoverage()
        let prober = try TableProber(
            coverage: tableCoverage, readers: tableReaders, groupConsumer: consumer, configuration: configuration,
            metrics: metrics, logger: logger)
        prober.start()
        let inputs = InputRecordFetcher(kafka: configuration.kafka, logger: logger)
        let workers = makeWorkers(
            consumer: consumer, producer: producer, tableCoverage: tableCoverage, inputs: inputs)
        components.withLockedValue {
            $0 = Components(consumer: consumer, producer: producer, workers: workers, tableReaders: tableReaders)
        }
        let delivery = DeliveryPoller(producer: producer)
        let stages = try startStages(inputs: inputs)
        for worker in workers { worker.start() }
        let waker = FetchWaker(
            consumer: consumer, queues: workers.map(\.queue), topic: configuration.topics.workoutEvents,
            partitionCount: try consumer.partitionCount(topic: configuration.topics.workoutEvents),
            batchSize: configuration.batchSize, metrics: metrics)
        waker.start()
        defer { waker.stop() }
        let trimmer = HeapTrimmer(intervalMs: configuration.heapTrimIntervalMs)
        defer { trimmer.stop() }
        startGroupViews()
        defer {
            changelogFollower.stop()
            personSummaries.stop()
            classSummaries.stop()
        }
        try subscribe(consumer, workers: workers)
        pollUntilStopped(consumer)
        // Shutdown: leaving the group revokes every partition, so each worker commits its
        // delivered work; then workers stop, the producer flushes, and the clients close.
        logReadinessChange()
        logger.info("processor stopping")
        // Leaving the group releases every partition; the changelog follower need not start
        // fetching them for the moment it has left.
        changelogFollower.following.detach()
        waker.stop()
        consumer.close()
        stopWorkers(workers)
        stages.people.stop()
        stages.classes.stop()
        inputs.stop()
        try? producer.flush(timeoutMs: 10_000)
        delivery.stop()
        prober.stop()
        for reader in tableReaders { reader.stop() }
        components.withLockedValue { $0 = nil }
        if let error = fatalError.withLockedValue({ $0 }) { throw error }
        logger.info("processor stopped")
    }
}

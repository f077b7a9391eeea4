import Dispatch
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneCodecs
import ZoneKafka

/// The steps of ``ZoneProcessor/run()``.
extension ZoneProcessor {
    /// Records the first error that stops the processor, and stops it.
    func fail(_ error: ProcessorError) {
        fatalError.withLockedValue { $0 = $0 ?? error }
        stop()
    }

    /// Starts reading the tables (profiles, then class plans) and waits until they have caught
    /// up (or the wait is over); nil when the processor was stopped meanwhile (nothing was
    /// consumed, so nothing is left to commit).
    func startTables(producer: KafkaProducer) throws -> [TableReader]? {
        let profileRecords = ProfileRecords(table: profiles, metrics: metrics, logger: logger)
        let classPlanRecords = ClassPlanRecords(
            table: classPlans, producer: producer, configuration: configuration, metrics: metrics, logger: logger)
        let readers = [
            try TableReader(topic: configuration.topics.zoneProfiles, configuration: configuration, logger: logger) {
                profileRecords.apply($0)
            },
            try TableReader(topic: configuration.topics.classPlans, configuration: configuration, logger: logger) {
                classPlanRecords.apply($0)
            },
        ]
        for (reader, name) in zip(readers, ["zs-profiles", "zs-class-plans"]) { reader.start(name: name) }
        for reader in readers
        where !reader.waitUntilCaughtUp(timeoutMs: configuration.profilesCatchUpMs, unless: { [self] in isStopping }) {
            logger.warning("table not caught up in time; starting anyway", metadata: ["topic": "\(reader.topic)"])
        }
        guard !isStopping else {
            for reader in readers { reader.stop() }
            logger.info("processor stopped")
            return nil
        }
        return readers
    }

    /// The group member the workers' queues hang from, reporting lag and broker reachability
    /// from librdkafka's statistics.
    func makeConsumer() throws -> KafkaConsumer {
        let statistics: (@Sendable (String) -> Void)? =
            configuration.statisticsIntervalMs > 0
            ? { @Sendable [metrics, self] text in
                metrics.workers.lag.report(statisticsJSON: text)
                if let up = ClientStatistics.anyBrokerUp(text) { self.brokerReachable.store(up, ordering: .relaxed) }
            } : nil
        return try KafkaConsumer(
            configuration: configuration.kafka, groupID: configuration.groupID, logger: logger,
            properties: configuration.memberProperties([
                "statistics.interval.ms": "\(configuration.statisticsIntervalMs)"
            ]),
            statistics: statistics)
    }

    /// The group-wide views for the endpoint (every live session, from the changelog all
    /// instances write, and every person's latest summary) and the warm standbys, which the
    /// changelog follower keeps. The views are off without the endpoint; a topic that
    /// cannot be read turns its view off, not the processor.
    func startGroupViews() {
        if configuration.publishesLiveSessions || configuration.standbySessions > 0 {
            do {
                try changelogFollower.start(
                    configuration: configuration, profiles: profiles,
                    revisions: { [sessionDirectory] in sessionDirectory.nextRevision() }, metrics: metrics,
                    logger: logger)
            } catch {
                logger.warning(
                    "group-wide live views and standbys off: the changelog topic cannot be read",
                    metadata: ["error": "\(error)"])
            }
        }
        guard configuration.publishesLiveSessions else { return }
        do {
            try personSummaries.start(configuration: configuration, logger: logger)
            try classSummaries.start(configuration: configuration, logger: logger)
        } catch {
            logger.warning(
                "/people and /classes results off: a summaries topic cannot be read", metadata: ["error": "\(error)"])
        }
    }

    /// Serves the group (rebalances, readiness) until ``stop()``. Fenced (another instance
    /// took this one's group.instance.id), or failed for good, the consumer gets no more
    /// records: the processor stops and says why.
    func pollUntilStopped(_ consumer: KafkaConsumer) {
        var progress = ProgressLog(intervalMs: configuration.progressIntervalMs)
        while !isStopping {
            consumer.poll(timeoutMs: 100)
            logReadinessChange()
            progress.logIfDue(self)
            if let fatal = consumer.fatalError { fail(ProcessorError(.consuming, reason: "\(fatal)")) }
        }
    }

    /// Asks every worker to commit what is delivered and stop, and waits for all of them.
    func stopWorkers(_ workers: [PartitionWorker]) {
        let done = workers.map { worker in
            let semaphore = DispatchSemaphore(value: 0)
            worker.post(.stop(done: semaphore))
            return semaphore
        }
        for semaphore in done { semaphore.wait() }
        for worker in workers { worker.join() }
    }

    /// The workers, each with its own queue of the group consumer's partitions.
    func makeWorkers(
        consumer: KafkaConsumer, producer: KafkaProducer, tableCoverage: TableCoverage, inputs: InputRecordFetcher
    ) -> [PartitionWorker] {
        metrics.recordSessionCaps(
            sessions: configuration.maxLiveSessions, bytes: configuration.maxSessionMemoryMb << 20)
        let context = WorkerContext(
            configuration: configuration, consumer: consumer, producer: producer, profiles: profiles,
            classPlans: classPlans, tableCoverage: tableCoverage, metrics: metrics, directory: sessionDirectory,
            changelogFollower: changelogFollower, inputs: inputs,
            budget: SessionBudget(
                limit: configuration.maxLiveSessions, byteLimit: configuration.maxSessionMemoryMb << 20),
            logger: logger, isStopping: { [self] in isStopping }, onFatal: { [self] error in fail(error) })
        return (0..<max(1, configuration.workers)).map {
            PartitionWorker(index: $0, queue: consumer.makeQueue(batchSize: configuration.batchSize), context: context)
        }
    }

    /// The person and class stages, each in its own group and on its own thread.
    func startStages(inputs: InputRecordFetcher) throws -> (
        people: KeyedStage<PersonAggregation>, classes: KeyedStage<ClassAggregation>
    ) {
        let people = try KeyedStage(
            PersonAggregation(configuration: configuration), configuration: configuration, metrics: metrics,
            logger: logger, inputs: inputs
        ) { [self] error in fail(error) }
        try people.start()
        let classes = try KeyedStage(
            ClassAggregation(configuration: configuration), configuration: configuration, metrics: metrics,
            logger: logger, inputs: inputs
        ) { [self] error in fail(error) }
        try classes.start()
        return (people, classes)
    }

    /// Joins the workers' group; each assignment reaches the workers through the handler.
    func subscribe(_ consumer: KafkaConsumer, workers: [PartitionWorker]) throws(KafkaError) {
        let listener = RebalanceHandler(
            workers: workers, metrics: metrics, logger: logger, clock: rebalanceClock,
            onAssigning: { [changelogFollower] partitions in changelogFollower.reserve(partitions) },
            onAssigned: { [self] in
                changelogFollower.rebalanceEnded()
                advance(to: .running(assigned: true))
            })
        advance(to: .running(assigned: false))
        try consumer.subscribe([configuration.topics.workoutEvents], listener: listener)
        logger.info(
            "processor running",
            metadata: ["workers": .stringConvertible(workers.count), "group": "\(configuration.groupID)"])
    }
}

/// Serves the producer's delivery reports on a thread of its own until stopped.
final class DeliveryPoller: Sendable {
    private final class Flag: Sendable {
        let running = Atomic<Bool>(true)
    }
    private let flag: Flag
    private let thread: JoinableThread

    init(producer: KafkaProducer) {
        let flag = Flag()
        self.flag = flag
        thread = JoinableThread(name: "zs-delivery") {
            while flag.running.load(ordering: .relaxed) { producer.pollDeliveryReports(timeoutMs: 50) }
        }
    }

    func stop() {
        flag.running.store(false, ordering: .releasing)
        thread.join()
    }
}

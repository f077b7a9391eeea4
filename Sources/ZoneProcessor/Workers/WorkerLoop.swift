import CoreMetrics
import Dispatch
import Foundation
import Logging
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// The state and loop of one worker thread. Lives on that thread's stack only: noncopyable, as
/// it owns the engine's output buffer (``EngineOutputs``), lent to the engine record by record.
struct WorkerLoop: ~Copyable {
    let worker: PartitionWorker
    let context: WorkerContext
    var partitions: [Int32: PartitionState] = [:]
    /// The last record's partition and its place in ``partitions``: a batch comes in runs of
    /// one partition's records, and hashing the partition for every record was 3% of a
    /// worker's time (perf). Forgotten whenever ``handleCommands()`` runs, the only
    /// place that adds or removes partitions (which moves indices).
    var lastPartition: (id: Int32, index: Dictionary<Int32, PartitionState>.Index)?
    var decoder: WorkoutEventDecoder
    /// Encodes and produces what the engine returns.
    var output: OutputProducer
    /// The engine's outputs for the record being applied; emptied after each (its capacity kept).
    var outputs = EngineOutputs()
    var stopped = false
    var failed = false
    var nextCommitMs: Int64
    var nextExpiryMs: Int64
    /// The wall clock read once per batch (idle timeouts need seconds, not nanoseconds).
    var batchWallMs: Int64 = 0
    /// Commits each sealed epoch: at least once, or in a transaction (WorkerLoop+Commits).
    var committer: any Committer
    /// Partitions whose changelog lost a write: their next epoch rewrites all their state.
    var changelogRewrites: Set<Int32> = []
    /// Counted locally, published once per batch.
    var counts = BatchCounts()
    /// When the current batch's first record reached the worker (uptime ns; 0: none yet).
    var batchStartedNs: UInt64 = 0
    /// The wall clock when the current batch's records were read: with each record's own
    /// timestamp, it bounds how far ahead an event's time may be (contract, section 3).
    var batchReadMs: Int64 = 0
    /// Restores assigned partitions and hands revoked ones to the standbys.
    var lifecycle: PartitionLifecycle
    /// The live state of this worker's sessions, published to the session directory.
    var liveViews: LiveViewPublisher
    let liveSessionsGauge: Gauge
    /// Holds session starts until the tables are read as of them.
    var join: TableJoin
    /// One copy of each plan's steps for this worker's sessions (``applyStart(_:_:slot:wallMs:)``).
    let plans = PlanInterner()

    init(worker: PartitionWorker, context: WorkerContext) {
        self.worker = worker
        self.context = context
        decoder = WorkoutEventDecoder(
            maxMessageBytes: context.configuration.maxMessageBytes,
            maxFutureMs: Int64(context.configuration.maxFutureMs))
        var startFailure: ProcessorError?
        var transactional: KafkaProducer?
        if context.configuration.guarantee == .exactlyOnce {
            do {
                transactional = try TransactionCommitter.producer(
                    id: context.configuration.transactionalID(role: "w\(worker.index)"),
                    configuration: context.configuration)
            } catch {
                startFailure = ProcessorError(.startingTransactions, reason: "\(error)")
            }
        }
        let deliveries = context.metrics.workers.deliveries
        output = OutputProducer(
            producer: transactional ?? context.producer, topics: context.configuration.topics,
            metrics: context.metrics, logger: context.logger, inputs: context.inputs,
            newTracker: { DeliveryTracker(latency: deliveries) })
        committer = Self.committer(worker: worker, context: context, transactional: transactional, output: output)
        liveSessionsGauge = context.metrics.liveSessionsGauge(worker: worker.index)
        lifecycle = PartitionLifecycle(context: context)
        liveViews = LiveViewPublisher(
            worker: worker.index, directory: context.directory, profiles: context.profiles,
            enabled: context.configuration.publishesLiveSessions)
        join = TableJoin(
            coverage: context.tableCoverage, waitMs: context.configuration.joinWaitMs, metrics: context.metrics,
            logger: context.logger)
        let now = WallClock.nowMs()
        nextCommitMs = now + Int64(context.configuration.commitIntervalMs)
        nextExpiryMs = now + 1000
        if let startFailure { fail(startFailure) }
    }

    /// The worker's loop: take commands (assignments, revocations, a stop), consume a batch,
    /// apply each record and produce its outputs, seal the commit epoch when it is due, and
    /// advance the sealed epochs' commits.
    mutating func run() {
        while !stopped {
            handleCommands()
            if stopped { break }
            let (consumed, pollMs) = applyBatch()
            releaseHeldSessions()
            publishCounts()
            sealIfDue(consumed: consumed, pollMs: pollMs)
            advanceEpochs(waiting: false)
        }
    }

    /// Consumes one batch and applies each record (``process(_:)``), up to a record of a
    /// partition assigned since (the rest of the batch comes again once the loop has taken the
    /// assignment); returns how many records were applied and how long the poll could wait.
    private mutating func applyBatch() -> (consumed: Int, pollMs: Int32) {
        batchWallMs = WallClock.nowMs()
        // Poll briefly while outputs await delivery, so their offsets are committed promptly,
        // and while sessions are held, so they go on as soon as the tables cover them.
        let timeoutMs = join.heldBytes > 0 ? 1 : committer.isSettled ? Self.idlePollMs : 5
        let consumed = worker.queue.takeBatch(timeoutMs: timeoutMs) { record in process(record) }
        return (consumed, timeoutMs)
    }

    /// Ends idle sessions and seals the commit epoch when their times come.
    private mutating func sealIfDue(consumed: Int, pollMs: Int32) {
        // Idle for a whole long poll: commit what was applied now rather than at the next
        // interval, so a rebalance or a crash during a lull replays nothing. Not after a
        // brief poll: a backlog's queue runs dry between fetch responses many times a
        // second, and sealing each time wrote every touched session to the changelog again
        // (over ten times a second per session while catching up).
        if consumed == 0 && pollMs == Self.idlePollMs { sealEpoch() }
        let now = WallClock.nowMs()
        if now >= nextExpiryMs {
            expireIdleSessions(now: now)
            nextExpiryMs = now + 1000
        }
        if now >= nextCommitMs {
            sealEpoch()
            nextCommitMs = now + Int64(context.configuration.commitIntervalMs)
        }
    }

    /// How long a worker with nothing awaiting delivery waits for records; a poll that long
    /// with none is a lull.
    static let idlePollMs: Int32 = 100

    /// The per-record path: the record's partition state is looked up once and changed in place;
    /// the engine's outputs are then produced (``produceOutputs(of:)``). A session start the
    /// tables do not cover yet is held back with its session's later records (``TableJoin``).
    mutating func process(_ record: KafkaRecord) -> Bool {
        guard !failed, record.error == nil else { return true }
        if batchStartedNs == 0 {
            batchStartedNs = DispatchTime.now().uptimeNanoseconds
            batchReadMs = WallClock.nowMs()
        }
        let partition = record.partition
        let found = lastPartition?.id == partition ? lastPartition?.index : partitions.index(forKey: partition)
        // A partition assigned while this batch was fetched (librdkafka hands records over
        // before the worker has read the assignment): the batch stops here, and the loop
        // restores the partition before this record comes again.
        if found == nil && worker.hasCommands { return false }
        // Not (or no longer) ours: the new owner reads it from the committed offset.
        guard let slot = found else { return true }
        lastPartition = (partition, slot)
        let offset = record.offset
        // A record delivered again (same partition and offset) changes nothing.
        guard !partitions.values[slot].hasApplied(offset: offset) else { return true }
        counts.records += 1
        let wallMs = partitions.values[slot].idleTime(at: batchWallMs)
        switch decoder.decode(
            value: record.value, key: record.key, recordTimestampMs: record.timestampMs, readAtMs: batchReadMs)
        {
        case .success(let event):
            if partitions.values[slot].wasAppliedBeforeRestore(event.session, offset: offset) { break }
            if case .sample = event.body { counts.samples += 1 }
            if partitions.values[slot].mayWaitForTables(offset: offset), holdsBack(event, record, slot: slot) {
                partitions.values[slot].nextOffset = offset + 1
                return true
            }
            apply(event, slot: slot, wallMs: wallMs)
        case .failure(let rejection):
            // A bad record of a held session waits behind the session's earlier records, so the
            // session's outputs keep their order.
            if !partitions.values[slot].parked.isEmpty, holdsBackRejected(record, slot: slot) {
                partitions.values[slot].nextOffset = offset + 1
                return true
            }
            outputs.reject(rejection)
        }
        partitions.values[slot].nextOffset = offset + 1
        produceOutputs(of: InputRecord(partition: partition, offset: offset, key: record.key, value: record.value))
        return true
    }

    /// Hands `event` to the engine with the tables as they are read now.
    @inline(__always)
    mutating func apply(_ event: WorkoutEvent, slot: Dictionary<Int32, PartitionState>.Index, wallMs: Int64) {
        if case .sessionStart(let request) = event.body, request.plan != nil || request.sessionClass != nil {
            return applyStart(event, request, slot: slot, wallMs: wallMs)
        }
        handle(event, slot: slot, wallMs: wallMs)
    }

    /// The engine applies the event, or says what it needs from the tables first (a session
    /// start): the worker reads them and hands the answers in.
    @inline(__always)
    private mutating func handle(_ event: WorkoutEvent, slot: Dictionary<Int32, PartitionState>.Index, wallMs: Int64) {
        guard let query = partitions.values[slot].store.handle(event, wallMs: wallMs, outputs: &outputs) else { return }
        let answers = tableAnswers(to: query)
        partitions.values[slot].store.handle(event, wallMs: wallMs, answers: answers, outputs: &outputs)
    }

    /// The tables as they are read now, and the caps' admission of a new session.
    @inline(never)
    private func tableAnswers(to query: TableQuery) -> TableAnswers {
        var answers = TableAnswers(
            profile: query.person.flatMap { context.profiles.profile(for: $0) },
            classPlan: query.sessionClass.flatMap { context.classPlans.plan(for: $0) })
        if query.startsSession { answers.admitted = context.budget.tryAdmit(plan: answers.plan(for: query)) }
        return answers
    }

    /// A `session_start` with a plan of its own or a class: the plan shares the steps of one
    /// this worker holds already, when they are the same, and the class's members share one
    /// copy of its name.
    @inline(never)
    private mutating func applyStart(
        _ event: WorkoutEvent, _ request: SessionStartRequest, slot: Dictionary<Int32, PartitionState>.Index,
        wallMs: Int64
    ) {
        var request = request
        request.plan = request.plan.map { plans.interned($0) }
        request.sessionClass = request.sessionClass.map { plans.interned(className: $0) }
        handle(
            WorkoutEvent(session: event.session, timestamp: event.timestamp, body: .sessionStart(request)), slot: slot,
            wallMs: wallMs)
    }

    /// Produces the engine's outputs for `input`, counts them, and frees a place under the
    /// live-session caps for each finished workout.
    mutating func produceOutputs(of input: InputRecord) {
        guard !outputs.isEmpty else { return }
        if counts.count(outputs) > 0 {
            for summary in outputs.finished { context.budget.release(plan: summary.plan?.plan) }
        }
        output.produce(outputs, of: input)
        outputs.removeAll()
    }

    mutating func publishCounts() {
        if batchStartedNs > 0 {
            context.metrics.recordBatch(nanoseconds: DispatchTime.now().uptimeNanoseconds - batchStartedNs)
            batchStartedNs = 0
        }
        if counts.oldestZoneChangeTs != .max {
            context.metrics.recordSampleAge(milliseconds: WallClock.nowMs() - counts.oldestZoneChangeTs)
            counts.oldestZoneChangeTs = .max
        }
        // Records held for the tables are counted when they come, and their outputs when they
        // are applied, often in a later batch with no records of its own.
        guard counts.records > 0 || counts.released > 0 else { return }
        if counts.records > 0 { context.metrics.countRecords(counts.records, samples: counts.samples) }
        if counts.zoneChanges > 0 { context.metrics.countZoneChanges(counts.zoneChanges) }
        if counts.targetChanges > 0 { context.metrics.countTargetChanges(counts.targetChanges) }
        for partition in Array(partitions.keys) {
            if let quality = partitions[partition]?.store.takeSampleQuality() {
                context.metrics.countSampleQuality(quality)
            }
        }
        counts = BatchCounts()
    }

    /// Publishes this worker's live-session count (the processor sums the workers').
    func updateLiveSessions() {
        let live = partitions.values.reduce(0) { $0 + $1.store.liveCount }
        worker.liveSessions.store(live, ordering: .relaxed)
        liveSessionsGauge.record(live)
        context.metrics.recordSessionMemory(bytes: context.budget.liveBytes)
    }

    mutating func fail(_ error: ProcessorError) {
        guard !failed else { return }
        failed = true
        let error = error.on(worker: worker.index)
        context.logger.error(
            "worker stopping", metadata: ["worker": .stringConvertible(worker.index), "error": "\(error)"])
        context.onFatal(error)
    }
}

/// Wall-clock milliseconds, for idle timeouts and commit intervals.
enum WallClock {
    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

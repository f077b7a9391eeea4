public import CoreMetrics
import NIOConcurrencyHelpers
public import Synchronization
public import ZoneEngine

/// The processor's counters, kept twice on purpose: as atomics that the command line and tests
/// read in-process, and as swift-metrics handles that a metrics backend (Prometheus, on the
/// operator's endpoint) exports. Workers count locally and report once per batch, so neither
/// is touched per record. Names follow Prometheus conventions (`_total` for counters).
public final class ProcessorMetrics: Sendable {
    public let recordsIn = Atomic<Int>(0)
    public let samplesIn = Atomic<Int>(0)
    public let zoneChanges = Atomic<Int>(0)
    public let targetChanges = Atomic<Int>(0)
    public let workoutsFinished = Atomic<Int>(0)
    public let deadLetters = Atomic<Int>(0)
    public let lateSamples = Atomic<Int>(0)
    public let duplicateSamples = Atomic<Int>(0)
    public let commits = Atomic<Int>(0)
    public let rebalances = Atomic<Int>(0)
    /// Changelog records written (session states, tombstones, retention markers).
    public let changelogRecords = Atomic<Int>(0)
    /// Sessions restored from the changelog, and the time restores took in all.
    public let sessionsRestored = Atomic<Int>(0)
    /// Changelog records a restore could not read (corrupt, another format, a key that is not
    /// its session's): skipped, logged and counted.
    public let changelogRecordsRefused = Atomic<Int>(0)
    public let restoreMicroseconds = Atomic<Int>(0)
    /// Partitions assigned to this instance whose state is still being restored.
    public let partitionsRestoring = Atomic<Int>(0)
    /// Outputs produced again after librdkafka gave up on them with a retriable error.
    public let outputsRetried = Atomic<Int>(0)
    /// Outputs the broker refused for good (their inputs are dead-lettered as `output_rejected`).
    public let outputsRejected = Atomic<Int>(0)
    /// Dead letters the broker refused for good even in their minimal form: logged, then gone.
    public let deadLettersRefused = Atomic<Int>(0)
    /// Profiles of new persons refused because the profile table was full (`max_profiles`).
    public let profilesRefused = Atomic<Int>(0)
    /// Workouts of new persons dead-lettered because the person stage was full (`max_persons`).
    public let personsRefused = Atomic<Int>(0)
    /// Plans of new classes refused because the class-plan table was full (`max_class_plans`).
    public let classPlansRefused = Atomic<Int>(0)
    /// Workouts of new classes dead-lettered because the class stage was full (`max_classes`).
    public let classesRefused = Atomic<Int>(0)
    /// Session starts that waited for the tables to be read as of their event, those that gave
    /// up after `join_wait_ms`, and those that did not wait because the tables' end offsets
    /// were already late by more than that.
    public let joinWaits = Atomic<Int>(0)
    public let joinTimeouts = Atomic<Int>(0)
    public let joinsUnwaited = Atomic<Int>(0)
    /// The table prober's rounds, and its end-offset requests the brokers did not answer.
    public let probes = Atomic<Int>(0)
    public let probeFailures = Atomic<Int>(0)
    /// Requests sent only to wake the group consumer's fetchers (``FetchWaker``).
    public let fetchWakes = Atomic<Int>(0)
    /// Per reason; dead letters are rare, so a lock is fine here.
    private let deadLettersByReason = NIOLockedValueBox<[DeadLetterReason: Int]>([:])
    /// Restores, rebalances and standbys.
    public let state: StateMetrics
    /// The workers' deliveries and lag, and the person and class stages' summaries, restores,
    /// deliveries and lag.
    public let workers: StageMetrics
    public let people: StageMetrics
    public let classes: StageMetrics
    private let exported: Exported
    /// Makes the per-worker and per-partition handles created later.
    let factory: any MetricsFactory

    /// `factory`: where the metrics are exported (default: the process-wide `MetricsSystem`).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        exported = Exported(factory: factory)
        state = StateMetrics(factory: factory)
        workers = StageMetrics(stage: "workers", summaryType: nil, factory: factory)
        people = StageMetrics(stage: "people", summaryType: "person_summary", factory: factory)
        classes = StageMetrics(stage: "classes", summaryType: "class_summary", factory: factory)
    }

    func countRecords(_ records: Int, samples: Int) {
        recordsIn.add(records, ordering: .relaxed)
        exported.recordsIn.increment(by: records)
        guard samples > 0 else { return }
        samplesIn.add(samples, ordering: .relaxed)
        exported.samplesIn.increment(by: samples)
    }

    func countZoneChanges(_ count: Int) {
        zoneChanges.add(count, ordering: .relaxed)
        exported.zoneChanges.increment(by: count)
    }

    func countTargetChanges(_ count: Int) {
        targetChanges.add(count, ordering: .relaxed)
        exported.targetChanges.increment(by: count)
    }

    func countWorkoutFinished() {
        workoutsFinished.add(1, ordering: .relaxed)
        exported.workoutsFinished.increment()
    }

    func countDeadLetter(_ reason: DeadLetterReason) {
        deadLetters.add(1, ordering: .relaxed)
        deadLettersByReason.withLockedValue { $0[reason, default: 0] += 1 }
        exported.deadLetters.increment()
        exported.deadLettersByReason[reason]?.increment()
    }

    func countOutputRetried() {
        outputsRetried.add(1, ordering: .relaxed)
        exported.outputsRetried.increment()
    }

    func countOutputRejected() {
        outputsRejected.add(1, ordering: .relaxed)
        exported.outputsRejected.increment()
    }

    func countDeadLetterRefused() {
        deadLettersRefused.add(1, ordering: .relaxed)
        exported.deadLettersRefused.increment()
    }

    func countProfileRefused() {
        profilesRefused.add(1, ordering: .relaxed)
        exported.profilesRefused.increment()
    }

    func countClassPlanRefused() {
        classPlansRefused.add(1, ordering: .relaxed)
        exported.classPlansRefused.increment()
    }

    func countClassRefused() {
        classesRefused.add(1, ordering: .relaxed)
        exported.classesRefused.increment()
    }

    /// The classes the class stage holds over the partitions it owns.
    func recordClasses(_ count: Int) { exported.classes.record(count) }

    /// A stage's changelog record that could not be read back (logged with it).
    func countChangelogRecordRefused() {
        changelogRecordsRefused.add(1, ordering: .relaxed)
        exported.changelogRecordsRefused.increment()
    }

    func countPersonRefused() {
        personsRefused.add(1, ordering: .relaxed)
        exported.personsRefused.increment()
    }

    /// The persons the person stage holds over the partitions it owns.
    func recordPersons(_ count: Int) { exported.persons.record(count) }

    func countSampleQuality(_ quality: SampleQuality) {
        if quality.late > 0 {
            lateSamples.add(quality.late, ordering: .relaxed)
            exported.lateSamples.increment(by: quality.late)
        }
        if quality.duplicate > 0 {
            duplicateSamples.add(quality.duplicate, ordering: .relaxed)
            exported.duplicateSamples.increment(by: quality.duplicate)
        }
    }

    /// One commit (offsets, or a transaction) that took `nanoseconds`.
    func countCommit(nanoseconds: UInt64) {
        commits.add(1, ordering: .relaxed)
        exported.commitDuration.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// One batch of records taken and applied, its outputs handed to librdkafka: how long a
    /// record spends in the processor at most (the batch's first record waits longest).
    func recordJoinWait(nanoseconds: UInt64, timedOut: Bool = false) {
        joinWaits.add(1, ordering: .relaxed)
        exported.joinWait.recordNanoseconds(Int64(clamping: nanoseconds))
        if timedOut {
            joinTimeouts.add(1, ordering: .relaxed)
            exported.joinTimeouts.increment()
        }
    }

    /// A session start that did not wait: the tables' end offsets were late already.
    func countUnwaitedJoin() {
        joinsUnwaited.add(1, ordering: .relaxed)
        exported.joinsUnwaited.increment()
    }

    /// One round of the table prober, from its candidates to the readers having applied the
    /// tables' ends.
    func recordProbe(nanoseconds: UInt64) {
        probes.add(1, ordering: .relaxed)
        exported.probeDuration.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    func countProbeFailure() {
        probeFailures.add(1, ordering: .relaxed)
        exported.probeFailures.increment()
    }

    func countFetchWake() {
        fetchWakes.add(1, ordering: .relaxed)
        exported.fetchWakes.increment()
    }

    func recordBatch(nanoseconds: UInt64) {
        exported.batchDuration.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// How old a sample was (wall clock minus its `ts`) when its zone change was produced:
    /// once per batch, the oldest sample behind a zone change in it. Meaningful for live
    /// traffic; replayed or preloaded records are as old as they are.
    func recordSampleAge(milliseconds: Int64) {
        exported.sampleAge.record(Double(max(0, milliseconds)) / 1000)
    }

    func countRebalance() {
        rebalances.add(1, ordering: .relaxed)
        exported.rebalances.increment()
    }

    func countChangelogRecords(_ count: Int) {
        guard count > 0 else { return }
        changelogRecords.add(count, ordering: .relaxed)
        exported.changelogRecords.increment(by: count)
    }

    func countRestore(sessions: Int, microseconds: Int, refused: Int = 0) {
        sessionsRestored.add(sessions, ordering: .relaxed)
        restoreMicroseconds.add(microseconds, ordering: .relaxed)
        exported.sessionsRestored.increment(by: sessions)
        if refused > 0 {
            changelogRecordsRefused.add(refused, ordering: .relaxed)
            exported.changelogRecordsRefused.increment(by: refused)
        }
    }

    func restoring(_ change: Int) {
        let now = partitionsRestoring.add(change, ordering: .relaxed).newValue
        exported.partitionsRestoring.record(now)
    }

    /// Dead letters so far for one reason.
    public func deadLetters(_ reason: DeadLetterReason) -> Int {
        deadLettersByReason.withLockedValue { $0[reason] ?? 0 }
    }

    /// A worker's live-session gauge.
    func liveSessionsGauge(worker: Int) -> Gauge {
        Gauge(label: "zonestream_live_sessions", dimensions: [("worker", "\(worker)")], factory: factory)
    }

    /// The live sessions' estimated memory, as `max_session_memory_mb` counts it.
    func recordSessionMemory(bytes: Int) { exported.sessionMemory.record(bytes) }

    /// The caps on live sessions (`max_live_sessions`, `max_session_memory_mb`), so alerts
    /// can say how near an instance is to refusing new sessions.
    func recordSessionCaps(sessions: Int, bytes: Int) {
        exported.liveSessionsLimit.record(sessions)
        exported.sessionMemoryLimit.record(bytes)
    }
}

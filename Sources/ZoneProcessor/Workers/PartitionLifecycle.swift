import Dispatch
import Logging
import ZoneEngine
import ZoneKafka

/// A worker's partitions coming and going: a newly assigned partition's state restored (from
/// its warm standby with the changelog's tail on top, or from the whole changelog) before its
/// input, and a revoked one's state handed to this instance's standbys, so that when it comes
/// back (an eager rebalance revokes every partition, then assigns most of them to their old
/// owners) or is assigned here later, only the changelog written since is read. Owned by the
/// worker's thread; the worker keeps the partitions themselves.
struct PartitionLifecycle {
    private let configuration: ProcessorConfiguration
    /// The group consumer, asked for committed offsets and the changelog's end.
    private let consumer: KafkaConsumer
    /// Keeps the warm standbys a newly assigned partition starts from.
    private let changelogFollower: ChangelogFollower
    /// The instance's caps, which count restored sessions.
    private let budget: SessionBudget
    private let metrics: ProcessorMetrics
    private let logger: Logger
    private let isStopping: @Sendable () -> Bool
    /// Reads the changelog on assignment; created with the first one.
    private var restorer: ChangelogRestorer?

    init(context: WorkerContext) {
        configuration = context.configuration
        consumer = context.consumer
        changelogFollower = context.changelogFollower
        budget = context.budget
        metrics = context.metrics
        logger = context.logger
        isStopping = context.isStopping
    }

    /// How long a rebalance waits for the broker's answers about a partition: a reachable
    /// broker answers in milliseconds; past this the partition is simply released without
    /// its state (and restored in full if it comes back).
    static let handoverQueryTimeoutMs: Int32 = 1000

    /// The group's committed offset of an input partition; -1 when none or unknown.
    func committedOffset(of partition: Int32, timeoutMs: Int32 = 5000) -> Int64 {
        let topic = TopicPartition(topic: configuration.topics.workoutEvents, partition: partition)
        let committed = try? consumer.committed([topic], timeoutMs: timeoutMs).first?.offset
        return max(-1, committed ?? -1)
    }

    /// A newly assigned partition's state: its standby on this instance, if it has one, with
    /// the changelog's tail read on top; else restored from the whole changelog. Nil when the
    /// processor is stopping; throws (and the worker stops) when the changelog cannot be read.
    mutating func restoredState(_ partition: Int32) throws(ProcessorError) -> PartitionState? {
        // Stopping, the partition is never applied, and the broker is not asked about it: while
        // the consumer leaves the group a query of its committed offset waits out its timeout,
        // which made a stop that met an assignment take 5 s per partition.
        guard !isStopping() else { return nil }
        var state = PartitionState(settings: configuration.engine, wallMs: WallClock.nowMs())
        let started = DispatchTime.now().uptimeNanoseconds
        let standby = changelogFollower.takeStandby(partition)
        var restored = standby?.restored ?? ChangelogRestorer.Restored()
        if let standby { state.store = standby.store }
        let standbySessions = state.store.liveCount
        do {
            let restorer = try self.restorer ?? ChangelogRestorer(configuration: configuration, logger: logger)
            self.restorer = restorer
            try restorer.restore(
                partition: partition, into: &state.store, &restored, from: standby?.nextOffset ?? 0,
                metrics: metrics.state, isStopping: isStopping)
        } catch {
            // Shutting down: the partition is left unapplied, nothing of it is committed.
            if isStopping() { return nil }
            throw error as? ProcessorError ?? ProcessorError(.restoring, partition: partition, reason: "\(error)")
        }
        guard !isStopping() else { return nil }
        state.replaySkip = restored.sessionsAppliedThrough
        for (id, appliedThrough) in restored.finishedAppliedThrough {
            state.replaySkip[id] = max(state.replaySkip[id] ?? -1, appliedThrough)
        }
        state.replayHorizon = state.replaySkip.values.max() ?? -1
        // Times stamped by an earlier owner's clock say nothing on this one's: idle time and
        // retention start again now (a restart is never a session's silence).
        state.store.restartIdleClocks(at: state.idleClock.time(at: WallClock.nowMs()))
        state.assignedOffset = committedOffset(of: partition)
        state.assignedEnd = end(of: configuration.topics.workoutEvents, partition, timeoutMs: 5000) ?? -1
        budget.add(state.store.sessions)
        let elapsedMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        metrics.countRestore(
            sessions: state.store.liveCount, microseconds: Int(elapsedMs * 1000), refused: restored.recordsRefused)
        if restored.recordsRead > 0 || standby != nil {
            var metadata: Logger.Metadata = [
                "partition": .stringConvertible(partition),
                "sessions": .stringConvertible(state.store.liveCount),
                "finished": .stringConvertible(restored.finishedAppliedThrough.count),
                "records": .stringConvertible(restored.recordsRead),
                "ms": .stringConvertible(Int(elapsedMs)),
            ]
            if standby != nil { metadata["standby_sessions"] = .stringConvertible(standbySessions) }
            logger.info("partition restored", metadata: metadata)
        }
        return state
    }

    /// A revoked partition's state as a standby, when the changelog holds everything applied
    /// (the revocation waited for its delivery, and no write of it is waiting to be redone:
    /// `rewritePending` false): it is then what a restore up to the changelog's present end
    /// would rebuild. At least once, the input offsets need not be committed: a commit is
    /// refused while the group rebalances, and the state's sessions skip the records they
    /// reflect when those come again, as restored ones would, but none may be committed past
    /// them (another owner's). Exactly once, they must be committed: an uncommitted
    /// transaction's changelog is void. A partition that got no input since its
    /// assignment is released as restored (its input position is the offset committed then).
    /// Nil otherwise.
    func standby(
        releasing partition: Int32, _ state: PartitionState, rewritePending: Bool
    ) -> StandbyPartitions.Partition? {
        // Stopping, nothing comes back (and the broker is not asked while the consumer closes).
        guard !isStopping(), !state.hasUncommittedProgress, state.parked.isEmpty, !rewritePending,
            let changelogEnd = end(
                of: configuration.topics.changelog, partition, timeoutMs: Self.handoverQueryTimeoutMs)
        else { return nil }
        let position = state.nextOffset >= 0 ? state.nextOffset : state.assignedOffset
        let committed = committedOffset(of: partition, timeoutMs: Self.handoverQueryTimeoutMs)
        // Exactly once, the state's offsets must be the committed ones. At least once, a
        // committed offset past this state's position means another member owned the
        // partition meanwhile (an assignment lost while this process stood still): its
        // changelog writes below `changelogEnd` are not in this state, which a standby reading
        // on from there would never learn (they finished sessions this state still holds).
        let sameOwner = configuration.guarantee == .exactlyOnce ? committed == position : committed <= position
        guard sameOwner else { return nil }
        return StandbyPartitions.Partition(releasing: state, changelogEnd: changelogEnd)
    }

    /// The end (high watermark) of `partition` of `topic`, asked of the broker; nil when it
    /// cannot be told within `timeoutMs`.
    private func end(of topic: String, _ partition: Int32, timeoutMs: Int32) -> Int64? {
        try? consumer.watermarks(TopicPartition(topic: topic, partition: partition), timeoutMs: timeoutMs).high
    }
}

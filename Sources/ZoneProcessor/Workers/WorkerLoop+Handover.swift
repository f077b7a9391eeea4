import Logging
import ZoneEngine
import ZoneKafka

/// A revoked partition's state, set aside in case the same rebalance gives the partition
/// back to this worker (an eager rebalance revokes every partition, then assigns most of
/// them to their old owners).
struct ParkedPartition {
    var state: PartitionState
    /// The changelog partition's end when the state was set aside: a write by anyone since
    /// moves it, and then the state is restored from the changelog instead.
    let changelogEnd: Int64
    /// The group's committed input offset then: a commit by anyone since moves it.
    let committedInput: Int64
}

extension WorkerLoop {
    /// How long a rebalance waits for the broker's answers about a partition: a reachable
    /// broker answers in milliseconds; past this the partition is simply restored.
    static let handoverQueryTimeoutMs: Int32 = 1000

    /// The end of `partition` of the changelog topic, asked of the broker; nil when it cannot
    /// be told in time.
    func changelogEnd(_ partition: Int32) -> Int64? {
        let topic = TopicPartition(topic: context.configuration.topics.changelog, partition: partition)
        return try? context.consumer.watermarks(topic, timeoutMs: Self.handoverQueryTimeoutMs).high
    }

    /// Sets a revoked partition's state aside when its outputs and changelog are delivered
    /// through everything applied (the revocation waited for them). At least once, its input
    /// offsets need not be committed: a commit is refused while the group rebalances, and the
    /// kept state skips the records below its next offset when they come again, as a restored
    /// one would. Exactly once, they must be: an uncommitted transaction's changelog is void.
    mutating func park(_ partition: Int32, _ state: PartitionState) {
        // Stopping, nothing comes back (and the broker is not asked while the consumer closes).
        guard !context.isStopping(), !state.hasUncommittedProgress, !changelogRewrites.contains(partition),
            state.nextOffset >= 0,
            let end = changelogEnd(partition)
        else { return }
        let committedInput = committedOffset(of: partition, timeoutMs: Self.handoverQueryTimeoutMs)
        guard context.configuration.guarantee == .atLeastOnce || committedInput == state.nextOffset else { return }
        parked[partition] = ParkedPartition(state: state, changelogEnd: end, committedInput: committedInput)
    }

    /// The state set aside for a partition given back, if nobody committed its input or
    /// wrote its changelog since: then it is what a restore would rebuild, without reading
    /// the changelog. Nil otherwise (the partition is restored).
    mutating func reclaim(_ partition: Int32) -> PartitionState? {
        guard let entry = parked.removeValue(forKey: partition), changelogEnd(partition) == entry.changelogEnd,
            committedOffset(of: partition, timeoutMs: Self.handoverQueryTimeoutMs) == entry.committedInput
        else { return nil }
        var kept = entry.state
        kept.assignedOffset = entry.committedInput
        // As after a restore: the time between owners is not the sessions' idle time.
        kept.store.restartIdleClocks(at: kept.idleClock.time(at: WallClock.nowMs()))
        context.budget.add(kept.store.liveCount)
        context.logger.info(
            "partition kept",
            metadata: [
                "partition": .stringConvertible(partition),
                "sessions": .stringConvertible(kept.store.liveCount),
            ])
        return kept
    }
}

import Logging
import ZoneEngine
import ZoneKafka

/// Handing a revoked partition's state to this instance's standbys, so that when the partition
/// comes back (an eager rebalance revokes every partition, then assigns most of them to their
/// old owners) or is assigned here later, only the changelog written since is read.
extension WorkerLoop {
    /// How long a rebalance waits for the broker's answers about a partition: a reachable
    /// broker answers in milliseconds; past this the partition is simply released without
    /// its state (and restored in full if it comes back).
    static let handoverQueryTimeoutMs: Int32 = 1000

    /// The end of `partition` of the changelog topic, asked of the broker; nil when it cannot
    /// be told in time.
    func changelogEnd(_ partition: Int32) -> Int64? {
        let topic = TopicPartition(topic: context.configuration.topics.changelog, partition: partition)
        return try? context.consumer.watermarks(topic, timeoutMs: Self.handoverQueryTimeoutMs).high
    }

    /// A revoked partition's state as a standby, when the changelog holds everything applied
    /// (the revocation waited for its delivery): it is then what a restore up to the
    /// changelog's present end would rebuild. At least once, the input offsets need not be
    /// committed: a commit is refused while the group rebalances, and the state's sessions skip
    /// the records they reflect when those come again, as restored ones would. Exactly once,
    /// they must be: an uncommitted transaction's changelog is void. A partition that got no
    /// input since its assignment is released as restored (its input position is the offset
    /// committed then). Nil otherwise.
    func standby(releasing partition: Int32, _ state: PartitionState) -> StandbyPartitions.Partition? {
        // Stopping, nothing comes back (and the broker is not asked while the consumer closes).
        guard !context.isStopping(), !state.hasUncommittedProgress, state.parked.isEmpty,
            !changelogRewrites.contains(partition),
            let end = changelogEnd(partition)
        else { return nil }
        if context.configuration.guarantee == .exactlyOnce {
            let position = state.nextOffset >= 0 ? state.nextOffset : state.assignedOffset
            guard committedOffset(of: partition, timeoutMs: Self.handoverQueryTimeoutMs) == position else {
                return nil
            }
        }
        return StandbyPartitions.Partition(releasing: state, changelogEnd: end)
    }
}

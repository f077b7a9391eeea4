import ZoneEngine

/// Warm standbys: the restorable state of changelog partitions this instance does not own,
/// kept up to date by the group table's changelog reader, each with the offset it reflects.
/// A partition assigned to this instance then starts from its standby and reads only the
/// changelog's tail, instead of the whole partition (docs/explanation/design-decisions.md).
///
/// A standby is complete or absent: it holds every record of its partition from the start
/// (the reader began there) or from the moment this instance released the partition with its
/// whole state (``adopt(_:_:)``). A partition this instance owned and released without its
/// state, or one given up over ``limit``, is ``abandoned``: its records are ignored until this
/// instance owns and releases it again.
struct StandbyPartitions {
    /// One partition's standby: what a restore of it up to ``nextOffset`` would rebuild.
    struct Partition {
        var store: SessionStore
        var restored = ChangelogRestorer.Restored()
        /// The next changelog offset to apply: every record below it is reflected.
        var nextOffset: Int64 = 0

        init(settings: EngineSettings) {
            store = SessionStore(settings: settings)
        }

        /// A released partition's state, as a restore through `changelogEnd` would rebuild it.
        init(releasing state: PartitionState, changelogEnd: Int64) {
            store = state.store
            for session in state.store.sessions {
                restored.sessionsAppliedThrough[session.id] = state.appliedThrough(session.id)
            }
            for id in state.store.finishedAt.keys {
                restored.finishedAppliedThrough[id] = state.appliedThrough(id)
            }
            nextOffset = changelogEnd
        }

        /// Applies the record at `offset` unless the state reflects it already.
        mutating func apply(_ record: ChangelogRecord, offset: Int64) {
            guard offset >= nextOffset else { return }
            ChangelogRestorer.apply(record, to: &store, &restored)
            nextOffset = offset + 1
        }
    }

    /// The most live sessions held in standbys (`state.standby_sessions`; 0: none beyond a
    /// rebalance, so a partition given back to this instance in the same rebalance still keeps
    /// its state).
    let limit: Int
    let settings: EngineSettings
    private(set) var partitions: [Int32: Partition] = [:]
    private(set) var abandoned: Set<Int32> = []
    /// Live sessions in all standbys.
    private(set) var sessions = 0

    init(limit: Int, settings: EngineSettings) {
        self.limit = limit
        self.settings = settings
    }

    /// Applies one record the reader read of a partition this instance does not own.
    mutating func apply(_ record: ChangelogRecord, partition: Int32, offset: Int64) {
        guard !abandoned.contains(partition) else { return }
        guard limit > 0 || partitions[partition] != nil else {
            abandoned.insert(partition)
            return
        }
        let before = partitions[partition]?.store.liveCount ?? 0
        partitions[partition, default: Partition(settings: settings)].apply(record, offset: offset)
        sessions += (partitions[partition]?.store.liveCount ?? 0) - before
        if limit > 0 && sessions > limit { abandon(partition) }
    }

    /// Takes `partition`'s standby for its new owner on this instance.
    mutating func take(_ partition: Int32) -> Partition? {
        guard let standby = partitions.removeValue(forKey: partition) else { return nil }
        sessions -= standby.store.liveCount
        return standby
    }

    /// This instance released `partition`: with its whole state (`standby`), kept from there;
    /// without it, given up.
    mutating func release(_ partition: Int32, _ standby: Partition?) {
        guard let standby else {
            abandon(partition)
            return
        }
        abandoned.remove(partition)
        _ = take(partition)
        partitions[partition] = standby
        sessions += standby.store.liveCount
    }

    /// After a rebalance: standbys of partitions not `owned` past ``limit`` are given up,
    /// the largest first (all of them when the limit is 0).
    mutating func enforceLimit(owned: Set<Int32>) {
        let candidates = partitions.filter { !owned.contains($0.key) }.sorted {
            $0.value.store.liveCount > $1.value.store.liveCount
        }
        for (partition, _) in candidates where limit == 0 || sessions > limit { abandon(partition) }
    }

    /// Records behind the ends in `ends` (a partition's next offset to be written), summed over
    /// the standbys.
    func recordsBehind(ends: [Int32: Int64]) -> Int64 {
        partitions.reduce(0) { sum, entry in sum + max(0, (ends[entry.key] ?? 0) - entry.value.nextOffset) }
    }

    private mutating func abandon(_ partition: Int32) {
        _ = take(partition)
        abandoned.insert(partition)
    }
}

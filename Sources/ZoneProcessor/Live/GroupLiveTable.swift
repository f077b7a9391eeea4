import NIOConcurrencyHelpers
import Synchronization
import ZoneEngine

/// Every live session of the consumer group that this instance's workers do not own, for the
/// endpoint's `/sessions/{id}` and `/board` on any instance: a read-only table fed by the
/// ``ChangelogFollower``, which reads the changelog topic that every worker of every instance
/// already writes once per commit interval with the state of the sessions that changed (and
/// tombstones for those that finished). So there is no RPC, no member-to-member addressing and
/// no extra topic: an instance only reads what the group writes anyway, as fresh as the last
/// commit interval plus one fetch (docs/explanation/design-decisions.md). A session of a crashed
/// instance keeps its last state until its new owner writes it again.
///
/// The sessions of the partitions this instance owns are not kept here: its workers publish
/// them, fresher, in their own tables, and holding them twice cost about 0.7 KB per live
/// session. The ``ChangelogFollower`` is the table's one writer: it claims a partition a worker
/// is assigned (its entries go, and the changelog's records of it are ignored from then on, in
/// the same lock), and releases one a worker lost with the worker's last views of its sessions,
/// kept until the new owner writes them.
final class GroupLiveTable: Sendable {
    private struct State {
        var entries: [String: LiveSessionEntry] = [:]
        /// Partitions a worker of this instance owns.
        var owned: Set<Int32> = []
    }

    private let state = NIOLockedValueBox(State())
    private let fed = Atomic<Bool>(false)

    /// The state of `session` as the group last wrote it, nil when it is not live anywhere.
    func session(_ session: String) -> LiveSessionEntry? { state.withLockedValue { $0.entries[session] } }

    /// Every live session of the group held here.
    func allSessions() -> [LiveSessionEntry] { Array(state.withLockedValue { $0.entries }.values) }

    /// From now on a follower feeds the table, so entries handed over will be replaced or
    /// removed by what the new owner writes.
    func startFeeding() { fed.store(true, ordering: .relaxed) }

    /// Whether a follower feeds the table (the endpoint's views are on).
    var isFed: Bool { fed.load(ordering: .relaxed) }

    /// A worker of this instance now owns `partition` and publishes its sessions itself.
    func claim(_ partition: Int32) {
        state.withLockedValue { state in
            state.owned.insert(partition)
            state.entries = state.entries.filter { $0.value.partition != partition }
        }
    }

    /// Workers of this instance lost `partitions`; `handed` are their last views of those
    /// partitions' sessions, kept until the changelog says otherwise.
    func release(_ partitions: Set<Int32>, handing handed: [LiveSessionEntry]) {
        let fed = isFed
        state.withLockedValue { state in
            state.owned.subtract(partitions)
            guard fed else { return }
            for entry in handed { state.entries[entry.state.session] = entry }
        }
    }

    /// Applies a changelog record of `partition`, unless a worker of this instance owns it.
    func apply(
        _ decoded: ChangelogRecord, partition: Int32, profiles: ProfileTable, revision: UInt64, writtenAtMs: Int64
    ) {
        guard isFed else { return }
        state.withLockedValue { state in
            guard !state.owned.contains(partition) else { return }
            switch decoded {
            case .session(let session, _):
                state.entries[session.id] = LiveSessionEntry(
                    session, profiles: profiles, revision: revision, partition: partition, takenAtMs: writtenAtMs)
            case .finished(let id, _, _):
                state.entries[id] = nil
            case .removed(let key):
                if !key.hasPrefix(ChangelogRecord.finishedPrefix) { state.entries[key] = nil }
            }
        }
    }
}

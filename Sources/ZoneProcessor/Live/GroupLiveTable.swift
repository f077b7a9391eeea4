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
/// session. A worker hands its entries over when it loses a partition (``handOver(_:)``), so
/// they stay visible until the new owner writes them.
final class GroupLiveTable: Sendable {
    private let entries = NIOLockedValueBox<[String: LiveSessionEntry]>([:])
    private let fed = Atomic<Bool>(false)

    /// The state of `session` as the group last wrote it, nil when it is not live anywhere.
    func session(_ session: String) -> LiveSessionEntry? { entries.withLockedValue { $0[session] } }

    /// Every live session of the group held here.
    func allSessions() -> [LiveSessionEntry] { Array(entries.withLockedValue { $0 }.values) }

    /// From now on a follower feeds the table, so entries handed over will be replaced or
    /// removed by what the new owner writes.
    func startFeeding() { fed.store(true, ordering: .relaxed) }

    /// Whether a follower feeds the table (the endpoint's views are on).
    var isFed: Bool { fed.load(ordering: .relaxed) }

    /// A worker of this instance lost the partitions of `entries`, its last views of their
    /// sessions, kept until the changelog says otherwise.
    func handOver(_ handed: [LiveSessionEntry]) {
        guard isFed else { return }
        entries.withLockedValue { table in
            for entry in handed { table[entry.state.session] = entry }
        }
    }

    /// A worker of this instance now owns `partition` and publishes its sessions itself.
    func drop(partition: Int32) {
        entries.withLockedValue { table in table = table.filter { $0.value.partition != partition } }
    }

    /// Applies a changelog record of `partition` (one this instance does not own).
    func apply(
        _ decoded: ChangelogRecord, partition: Int32, profiles: ProfileTable, revision: UInt64, writtenAtMs: Int64
    ) {
        guard isFed else { return }
        entries.withLockedValue { table in
            switch decoded {
            case .session(let session, _):
                table[session.id] = LiveSessionEntry(
                    session, profiles: profiles, revision: revision, partition: partition, takenAtMs: writtenAtMs)
            case .finished(let id, _, _):
                table[id] = nil
            case .removed(let key):
                if !key.hasPrefix(ChangelogRecord.finishedPrefix) { table[key] = nil }
            }
        }
    }
}

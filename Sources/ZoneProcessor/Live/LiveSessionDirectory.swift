import NIOConcurrencyHelpers
import Synchronization
public import ZoneEngine

/// Where workers publish the live state of their sessions for readers on other threads (the
/// operator's `/sessions/{id}` and the gym board), so a query never touches a worker's state.
///
/// Each worker keeps its own copy-on-write table of ``LiveSessionEntry`` and, at each commit
/// interval in which something changed, swaps it into its slot here. A slot's lock is held for
/// that swap or a reader's copy of the reference only, never while a worker processes records,
/// so readers never slow a worker down beyond a pointer swap. What readers see is as fresh as
/// the last commit interval (`commit_interval_ms`, 1 s by default).
public final class LiveSessionDirectory: Sendable {
    private let slots: [Slot]
    private let revisions = Atomic<UInt64>(0)
    /// The group's live sessions that no worker here owns, when the changelog follower feeds
    /// them (``GroupLiveTable``).
    let group = GroupLiveTable()

    init(workers: Int) {
        slots = (0..<max(1, workers)).map { _ in Slot() }
    }

    /// The live state of `session` anywhere in the group (this instance's own view first, it
    /// is the freshest), nil when it is not live.
    public func session(_ session: String) -> LiveSessionEntry? {
        for slot in slots {
            if let entry = slot.table.withLockedValue({ $0[session] }) { return entry }
        }
        return group.session(session)
    }

    /// Every session live in the group: this instance's own, and the others' as the group's
    /// changelog last had them.
    public func allSessions() -> [LiveSessionEntry] {
        var all: [String: LiveSessionEntry] = [:]
        for entry in group.allSessions() { all[entry.state.session] = entry }
        for slot in slots {
            let table = slot.table.withLockedValue { $0 }
            all.merge(table) { _, own in own }
        }
        return Array(all.values)
    }

    /// Replaces worker `index`'s published table.
    func publish(worker index: Int, _ table: [String: LiveSessionEntry]) {
        guard slots.indices.contains(index) else { return }
        slots[index].table.withLockedValue { $0 = table }
    }

    /// A number larger than any handed out before, to mark a change of an entry.
    func nextRevision() -> UInt64 { revisions.add(1, ordering: .relaxed).newValue }

    /// One worker's published table.
    private final class Slot: Sendable {
        let table = NIOLockedValueBox<[String: LiveSessionEntry]>([:])
    }
}

/// One session's published state, with the revision of its last change (readers that send
/// changes only, such as the board's event stream, compare revisions).
///
/// A class, immutable: the tables that hold one per live session (a worker's, the directory's
/// copy of it, the group's) then cost a reference per slot instead of the whole state, and a
/// worker's copy-on-write of its table at each commit copies references. As a struct the
/// tables took about 0.7 KB per live session.
public final class LiveSessionEntry: Sendable {
    public let state: LiveSessionState
    /// The input partition the session belongs to (after the state, in its tail's padding).
    public let partition: Int32
    public let revision: UInt64
    /// When the state was taken, in wall-clock milliseconds: when its owner published it, or
    /// wrote it to the changelog.
    public let takenAtMs: Int64

    public init(state: LiveSessionState, revision: UInt64, partition: Int32, takenAtMs: Int64) {
        self.state = state
        self.revision = revision
        self.partition = partition
        self.takenAtMs = takenAtMs
    }

    /// `session` as it stands (or stood at `takenAtMs`), with its person's profile as
    /// `profiles` has it now.
    convenience init(
        _ session: WorkoutSession, profiles: ProfileTable, revision: UInt64, partition: Int32,
        takenAtMs: Int64 = WallClock.nowMs()
    ) {
        let profile = session.person.flatMap { profiles.profile(for: $0) }
        self.init(
            state: session.liveState(profile: profile), revision: revision, partition: partition, takenAtMs: takenAtMs)
    }

    /// How old the state is now, in milliseconds.
    public var staleMs: Int64 { max(0, WallClock.nowMs() - takenAtMs) }
}

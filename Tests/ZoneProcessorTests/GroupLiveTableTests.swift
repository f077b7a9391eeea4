import Testing
import ZoneEngine

@testable import ZoneProcessor

/// The changelog follower feeds the group table the sessions of partitions other instances own: those a worker of
/// this instance owns are published by the worker and not kept twice, and a worker's last
/// views of a partition it loses are kept until the changelog says otherwise.
@Suite struct GroupLiveTableTests {
    static func session(_ id: String) -> WorkoutSession {
        WorkoutSession(id: id, startTimestamp: 1_000, person: nil, activity: nil, profile: nil)
    }

    static func entry(_ id: String, partition: Int32, revision: UInt64) -> LiveSessionEntry {
        LiveSessionEntry(session(id), profiles: ProfileTable(), revision: revision, partition: partition)
    }

    @Test func recordsOfAnOwnedPartitionAreNotKept() {
        let views = GroupLiveTable()
        views.startFeeding()
        let table = ChangelogFollower(views: views)
        let profiles = ProfileTable()
        table.apply(
            .session(Self.session("a"), appliedThrough: 1), partition: 0, offset: 0, profiles: profiles, revision: 1)
        table.apply(
            .session(Self.session("b"), appliedThrough: 1), partition: 1, offset: 0, profiles: profiles, revision: 1)
        #expect(Set(views.allSessions().map(\.state.session)) == ["a", "b"])

        // A worker claims partition 0: its entries go, and its later records are skipped.
        table.claim(0)
        #expect(table.isOwned(0) && !table.isOwned(1))
        #expect(views.allSessions().map(\.state.session) == ["b"])
        table.apply(
            .session(Self.session("c"), appliedThrough: 2), partition: 0, offset: 0, profiles: profiles, revision: 2)
        #expect(views.session("c") == nil)
        table.apply(
            .session(Self.session("d"), appliedThrough: 2), partition: 1, offset: 0, profiles: profiles, revision: 2)
        #expect(views.session("d")?.partition == 1)
    }

    @Test func aReleasedPartitionsViewsStayUntilTheChangelogReplacesThem() throws {
        let views = GroupLiveTable()
        views.startFeeding()
        let table = ChangelogFollower(views: views)
        let profiles = ProfileTable()
        table.claim(3)
        table.release([3], standbys: [:], views: [Self.entry("e", partition: 3, revision: 7)])
        #expect(!table.isOwned(3))
        #expect(try #require(views.session("e")).revision == 7)
        // The new owner writes it again, then finishes it.
        table.apply(
            .session(Self.session("e"), appliedThrough: 5), partition: 3, offset: 0, profiles: profiles, revision: 9)
        #expect(views.session("e")?.revision == 9)
        table.apply(
            .finished("e", wallMs: 10, appliedThrough: 6), partition: 3, offset: 0, profiles: profiles, revision: 10)
        #expect(views.session("e") == nil)
    }

    /// An assigned partition's records are skipped while its worker restores it (so a restart
    /// does not hold its sessions twice); what the table held for it stays visible until the
    /// worker claims the partition.
    @Test func aReservedPartitionIsSkippedButStaysVisibleUntilClaimed() {
        let views = GroupLiveTable()
        views.startFeeding()
        let table = ChangelogFollower(views: views)
        let profiles = ProfileTable()
        table.apply(
            .session(Self.session("g"), appliedThrough: 1), partition: 4, offset: 0, profiles: profiles, revision: 1)
        table.reserve([4])
        table.apply(
            .session(Self.session("h"), appliedThrough: 2), partition: 4, offset: 0, profiles: profiles, revision: 2)
        #expect(views.session("h") == nil, "a reserved partition's records are not kept")
        #expect(views.session("g") != nil, "what was held stays until the worker claims the partition")
        table.claim(4)
        #expect(views.session("g") == nil)
    }

    @Test func nothingIsHandedOverToATableThatDoesNotReadTheChangelog() {
        // It could never learn that the sessions finished, so it would keep them for good.
        let views = GroupLiveTable()
        let table = ChangelogFollower(views: views)
        table.claim(2)
        table.release([2], standbys: [:], views: [Self.entry("f", partition: 2, revision: 1)])
        #expect(views.allSessions().isEmpty)
        #expect(!table.isOwned(2))
    }
}

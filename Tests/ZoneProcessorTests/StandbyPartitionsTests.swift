import Synchronization
import Testing
import ZoneEngine

@testable import ZoneProcessor

/// Warm standbys follow the changelog of partitions this instance does not own, are complete
/// or absent, and stay within their limit.
@Suite struct StandbyPartitionsTests {
    static func session(_ id: String) -> WorkoutSession {
        WorkoutSession(id: id, startTimestamp: 1_000, person: nil, activity: nil, profile: nil)
    }

    @Test func aStandbyIsWhatARestoreOfTheSameRecordsBuilds() throws {
        var standbys = StandbyPartitions(limit: 10, settings: EngineSettings())
        standbys.apply(.session(Self.session("a"), appliedThrough: 4), partition: 1, offset: 0)
        standbys.apply(.session(Self.session("b"), appliedThrough: 6), partition: 1, offset: 1)
        standbys.apply(.finished("a", wallMs: 50, appliedThrough: 7), partition: 1, offset: 2)
        standbys.apply(.removed(key: "a"), partition: 1, offset: 3)
        // A record read again (the reader's fetch repeating an offset) changes nothing.
        standbys.apply(.session(Self.session("a"), appliedThrough: 4), partition: 1, offset: 0)
        #expect(standbys.sessions == 1)
        let taken = standbys.take(1)
        let standby = try #require(taken)
        #expect(standby.nextOffset == 4)
        #expect(standby.store.sessions.map(\.id) == ["b"])
        #expect(standby.store.finishedAt == ["a": 50])
        #expect(standby.restored.sessionsAppliedThrough == ["b": 6])
        #expect(standby.restored.finishedAppliedThrough == ["a": 7])
        #expect(standbys.take(1) == nil)
        #expect(standbys.sessions == 0)
    }

    @Test func aPartitionReleasedWithoutItsStateIsIgnoredUntilReleasedWithIt() throws {
        var standbys = StandbyPartitions(limit: 10, settings: EngineSettings())
        standbys.release(2, nil)
        // Its records since the start were skipped while it was owned: a standby now would
        // lack them.
        standbys.apply(.session(Self.session("c"), appliedThrough: 9), partition: 2, offset: 40)
        #expect(standbys.take(2) == nil)

        var state = PartitionState(settings: EngineSettings(), wallMs: 0)
        state.store.restore(Self.session("d"))
        state.nextOffset = 12
        state.committedOffset = 12
        standbys.release(2, StandbyPartitions.Partition(releasing: state, changelogEnd: 41))
        standbys.apply(.session(Self.session("c"), appliedThrough: 9), partition: 2, offset: 40)
        standbys.apply(.session(Self.session("e"), appliedThrough: 13), partition: 2, offset: 41)
        let taken = standbys.take(2)
        let standby = try #require(taken)
        #expect(
            Set(standby.store.sessions.map(\.id)) == ["d", "e"], "the record below the release's end is in its state")
        #expect(standby.restored.sessionsAppliedThrough == ["d": 12, "e": 13])
        #expect(standby.nextOffset == 42)
    }

    @Test func standbysOverTheLimitAreGivenUp() {
        var standbys = StandbyPartitions(limit: 2, settings: EngineSettings())
        standbys.apply(.session(Self.session("a"), appliedThrough: 1), partition: 0, offset: 0)
        standbys.apply(.session(Self.session("b"), appliedThrough: 1), partition: 1, offset: 0)
        standbys.apply(.session(Self.session("c"), appliedThrough: 2), partition: 1, offset: 1)
        #expect(standbys.sessions == 1 && standbys.partitions.keys.sorted() == [0])
        standbys.apply(.session(Self.session("d"), appliedThrough: 3), partition: 1, offset: 2)
        #expect(standbys.partitions[1] == nil, "a given-up partition stays given up")

        var state = PartitionState(settings: EngineSettings(), wallMs: 0)
        for id in ["e", "f", "g"] { state.store.restore(Self.session(id)) }
        standbys.release(3, StandbyPartitions.Partition(releasing: state, changelogEnd: 9))
        #expect(standbys.sessions == 4, "a rebalance may hold more until it ends")
        standbys.enforceLimit(owned: [])
        #expect(standbys.partitions.keys.sorted() == [0] && standbys.sessions == 1, "the largest goes first")
    }

    @Test func withoutStandbysOnlyAPartitionGivenBackInTheSameRebalanceKeepsItsState() {
        var standbys = StandbyPartitions(limit: 0, settings: EngineSettings())
        standbys.apply(.session(Self.session("a"), appliedThrough: 1), partition: 0, offset: 0)
        #expect(standbys.partitions.isEmpty)
        var state = PartitionState(settings: EngineSettings(), wallMs: 0)
        state.store.restore(Self.session("b"))
        standbys.release(1, StandbyPartitions.Partition(releasing: state, changelogEnd: 3))
        standbys.release(2, StandbyPartitions.Partition(releasing: state, changelogEnd: 5))
        standbys.enforceLimit(owned: [1])
        #expect(standbys.partitions.keys.sorted() == [1], "given back: kept for its worker; given away: dropped")
    }

    @Test func readinessNamesEachRestoreWithWhatIsLeft() {
        let metrics = StateMetrics(factory: ProcessorMetrics().factory)
        metrics.restoreProgressed(partition: 3, read: 0, left: 1_200)
        metrics.restoreProgressed(partition: 1, read: 0, left: 40)
        #expect(metrics.restoreRecordsRemaining.load(ordering: .relaxed) == 1_240)
        let reason = ZoneProcessor.restoringReason(4, metrics.restoresUnderWay)
        #expect(
            reason.hasPrefix("restoring 4 partitions from the changelog: 1 (40 records left"), "\(reason)")
        #expect(reason.contains("3 (1200 records left"), "\(reason)")
        metrics.restoreEnded(partition: 3)
        metrics.restoreEnded(partition: 1)
        #expect(metrics.restoreRecordsRemaining.load(ordering: .relaxed) == 0)
        #expect(ZoneProcessor.restoringReason(1, []) == "restoring 1 partition from the changelog")
    }
}

import Foundation
import Logging
import Testing
import ZoneEngine
import ZoneKafka
import ZoneTestSupport

@testable import ZoneProcessor

/// The changelog follower fetches only the partitions no worker of this instance
/// owns: an instance that owns every partition reads none of the changelog its workers write.
/// A partition it releases is read from where its released state ends, one it never read from
/// the start.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct ChangelogFollowingTests {
    @Test(arguments: BrokerKind.selected)
    func theReaderFetchesOnlyWhatThisInstanceDoesNotOwn(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        var configuration = ProcessorConfiguration(kafka: KafkaConfiguration(bootstrapServers: broker.bootstrapServers))
        configuration.publishesLiveSessions = true
        let producer = try KafkaProducer(configuration: configuration.kafka)
        for partition in Int32(0)..<4 { try Self.write("p\(partition)-a", partition: partition, producer) }

        let views = GroupLiveTable()
        let table = ChangelogFollower(views: views)
        try table.start(
            configuration: configuration, profiles: ProfileTable(), revisions: { 1 }, metrics: ProcessorMetrics(),
            logger: Logger(label: "changelog-following-test"))
        defer { table.stop() }
        #expect(table.following.followed.isEmpty, "nothing is fetched before the group assigns partitions")

        table.reserve([0, 1])
        #expect(table.following.followed == [2, 3])
        Eventually.holds(within: 30, poll: 0.05) { Self.sessions(views) == ["p2-a", "p3-a"] }
        #expect(Self.sessions(views) == ["p2-a", "p3-a"])

        // Partition 1 released with its whole state, which reflects its first record: read
        // from the second on.
        var standby = StandbyPartitions.Partition(settings: configuration.engine)
        standby.nextOffset = 1
        table.release([1], standbys: [1: standby], views: [])
        #expect(table.following.followed == [1, 2, 3])
        try Self.write("p1-b", partition: 1, producer)
        Eventually.holds(within: 30, poll: 0.05) { views.session("p1-b") != nil }
        #expect(views.session("p1-b") != nil)
        #expect(views.session("p1-a") == nil, "a record the released state reflects is not read again")

        // Partition 0 released without its state: read from its start.
        table.release([0], standbys: [:], views: [])
        #expect(table.following.followed == [0, 1, 2, 3])
        Eventually.holds(within: 30, poll: 0.05) { views.session("p0-a") != nil }
        #expect(views.session("p0-a") != nil)

        // Owned again: no longer fetched.
        table.reserve([0, 2])
        #expect(table.following.followed == [1, 3])
    }

    static func sessions(_ table: GroupLiveTable) -> Set<String> { Set(table.allSessions().map(\.state.session)) }

    /// Writes a snapshot of session `id` to `partition` of the changelog, delivered.
    static func write(_ id: String, partition: Int32, _ producer: KafkaProducer) throws {
        let session = WorkoutSession(id: id, startTimestamp: 1_000, person: nil, activity: nil, profile: nil)
        let value = ChangelogRecord.encodeSession(session, appliedThrough: 1, format: WorkoutSession.snapshotVersion)
        try producer.produce(
            topic: Topics().changelog, key: Array(id.utf8), value: value, tracker: nil, partition: partition)
        try producer.flush(timeoutMs: 10_000)
    }
}

import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneEngine
import ZoneKafka

/// Every live session of the consumer group, for the endpoint's `/sessions/{id}` and `/board`
/// on any instance: a read-only table built by reading the whole changelog topic, which every
/// worker of every instance already writes once per commit interval with the state of the
/// sessions that changed (and tombstones for those that finished). So there is no RPC, no
/// member-to-member addressing and no extra topic: an instance only reads what the group
/// writes anyway, as fresh as the last commit interval plus one fetch (docs/explanation/decisions.md).
/// A session of a crashed instance keeps its last state until its new owner writes it again.
///
/// The sessions of the partitions this instance owns are not kept here: its workers publish
/// them, fresher, in their own tables, and holding them twice cost about 0.7 KB per live
/// session. Their changelog is not even fetched (``ChangelogFollowing``). A worker hands its
/// entries over when it loses a partition (``handOver(_:)``), so they stay visible until the
/// new owner writes them.
///
/// The same reader keeps the warm standbys (``StandbyPartitions``) of the partitions this
/// instance does not own; it runs when either the views or the standbys are on.
final class GroupLiveTable: Sendable {
    private struct Table {
        var entries: [String: LiveSessionEntry] = [:]
        /// Partitions this instance's workers own.
        var owned: Set<Int32> = []
        /// The changelog's partition count, once the reader has started.
        var partitionCount: Int32 = 0
        /// The next offset of each partition after the last record the reader fetched.
        var positions: [Int32: Int64] = [:]
        var standbys = StandbyPartitions(limit: 0, settings: EngineSettings())
    }
    private let table = NIOLockedValueBox(Table())
    private let running = Atomic<Bool>(true)
    private let reading = Atomic<Bool>(false)
    /// Whether the group has given this instance its first assignment: the changelog is read
    /// only from then on, so the sessions of partitions this instance is about to restore are
    /// never held here as well (that doubled a restart's memory).
    private let assignmentSeen = Atomic<Bool>(false)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)
    /// The partitions the reader fetches.
    let following = ChangelogFollowing()

    /// The state of `session` as the group last wrote it, nil when it is not live anywhere.
    func session(_ session: String) -> LiveSessionEntry? { table.withLockedValue { $0.entries[session] } }

    /// Every live session of the group.
    func allSessions() -> [LiveSessionEntry] { Array(table.withLockedValue { $0.entries }.values) }

    /// The group gave this instance `partitions`: their changelog records are skipped from now
    /// on (the workers restore them), while the entries already held stay visible until each
    /// partition is claimed.
    func reserve(_ partitions: [Int32]) {
        table.withLockedValue { $0.owned.formUnion(partitions) }
        assignmentSeen.store(true, ordering: .releasing)
        followUnowned()
    }

    /// A worker of this instance now owns `partition` and publishes its sessions itself.
    func claim(_ partition: Int32) {
        table.withLockedValue { table in
            table.owned.insert(partition)
            table.entries = table.entries.filter { $0.value.partition != partition }
        }
        followUnowned()
    }

    /// A worker of this instance lost the partitions of `entries`, its last views of their
    /// sessions, kept until the changelog says otherwise.
    func handOver(_ entries: [LiveSessionEntry]) {
        guard reading.load(ordering: .relaxed) else { return }
        table.withLockedValue { table in
            for entry in entries { table.entries[entry.state.session] = entry }
        }
    }

    /// A worker of this instance no longer owns `partitions`; `standbys` holds the state of
    /// those it released whole, kept from there as their standbys.
    func release(_ partitions: Set<Int32>, standbys: [Int32: StandbyPartitions.Partition]) {
        table.withLockedValue { table in
            table.owned.subtract(partitions)
            for partition in partitions { table.standbys.release(partition, standbys[partition]) }
        }
        followUnowned()
    }

    /// Makes the reader fetch every partition no worker of this instance owns, once the group
    /// has given this instance its first assignment: a partition it did not fetch yet from its
    /// standby's next offset (what a released partition's state reflects), else from where the
    /// reader left it (from its start at first). Without the views, not the partitions whose
    /// standbys were given up.
    private func followUnowned() {
        following.follow {
            table.withLockedValue { table in
                guard assignmentSeen.load(ordering: .acquiring) else { return [:] }
                var starts: [Int32: Int64] = [:]
                let views = reading.load(ordering: .relaxed)
                for partition in 0..<table.partitionCount where !table.owned.contains(partition) {
                    // A given-up standby's records would be ignored, unless the views want them.
                    guard views || !table.standbys.abandoned.contains(partition) else { continue }
                    starts[partition] =
                        table.standbys.partitions[partition]?.nextOffset ?? table.positions[partition]
                        ?? TopicPartition.beginning
                }
                return starts
            }
        }
    }

    /// The standby of `partition`, newly assigned to a worker of this instance, nil when there
    /// is none (the partition is restored in full).
    func takeStandby(_ partition: Int32) -> StandbyPartitions.Partition? {
        table.withLockedValue { $0.standbys.take(partition) }
    }

    /// A rebalance ended: standbys over the limit are given up.
    func rebalanceEnded() {
        table.withLockedValue { table in table.standbys.enforceLimit(owned: table.owned) }
        followUnowned()
    }

    /// What the standbys hold: partitions, live sessions, and changelog records they are behind
    /// the ends in `ends`.
    func standbyFigures(ends: [Int32: Int64]) -> (partitions: Int, sessions: Int, recordsBehind: Int64) {
        table.withLockedValue { table in
            (table.standbys.partitions.count, table.standbys.sessions, table.standbys.recordsBehind(ends: ends))
        }
    }

    /// Whether the reader keeps entries for the views, and standbys of up to `standbySessions`.
    func configure(views: Bool, standbySessions: Int, settings: EngineSettings) {
        table.withLockedValue { $0.standbys = StandbyPartitions(limit: standbySessions, settings: settings) }
        if views { startReading() }
    }

    /// Starts reading every partition of `configuration.topics.changelog` from its start, for
    /// the views (with the endpoint on) and the standbys (`state.standby_sessions` above 0).
    func start(
        configuration: ProcessorConfiguration, profiles: ProfileTable, revisions: @escaping @Sendable () -> UInt64,
        metrics: ProcessorMetrics, logger: Logger
    ) throws(KafkaError) {
        configure(
            views: configuration.publishesLiveSessions, standbySessions: configuration.standbySessions,
            settings: configuration.engine)
        let topic = configuration.topics.changelog
        let consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: nil, logger: logger, properties: Self.readerProperties)
        let partitions = try consumer.partitionCount(topic: topic)
        self.table.withLockedValue { $0.partitionCount = Int32(partitions) }
        following.attach(consumer, topic: topic, logger: logger)
        followUnowned()
        let table = self
        let owner = configuration.stateOwner
        thread.withLockedValue {
            $0 = JoinableThread(name: "zs-group-live") {
                var nextReportMs: Int64 = 0
                while table.running.load(ordering: .relaxed) {
                    consumer.poll(timeoutMs: 100) { record in
                        // Another application's state (a changelog shared by hand) is neither
                        // shown nor kept as a standby; the restore refuses it.
                        guard !owner.isForeign(record) else { return }
                        table.apply(record, profiles: profiles, revision: revisions())
                    }
                    let now = WallClock.nowMs()
                    guard now >= nextReportMs else { continue }
                    nextReportMs = now + 1000
                    table.reportStandbys(consumer: consumer, topic: topic, partitions: partitions, metrics: metrics)
                }
                table.following.detach()
                consumer.close()
            }
        }
    }

    /// The reader's consumer. A restart finds it behind the whole changelog of the partitions
    /// it follows while the workers restore theirs: with the workers' pre-fetch limit (64 MB),
    /// when it also fetched (and skipped) the partitions its own instance owns, its queue
    /// raised a restore's peak RSS to 1.3-1.45 times the steady state at 100,000 sessions;
    /// with 16 MB, 1.05 (`zonestream bench memory`). It catches up at about 16 MB a second
    /// then (librdkafka 2.0 fetches again up to a second after a full queue drains).
    static let readerProperties = ["fetch.wait.max.ms": "100", "queued.max.messages.kbytes": "16384"]

    /// Exports the standbys' figures, behind the ends the reader's last fetches told.
    private func reportStandbys(consumer: KafkaConsumer, topic: String, partitions: Int, metrics: ProcessorMetrics) {
        var ends: [Int32: Int64] = [:]
        for partition in 0..<Int32(partitions) {
            ends[partition] = consumer.knownWatermarks(TopicPartition(topic: topic, partition: partition))?.high
        }
        let figures = standbyFigures(ends: ends)
        metrics.state.reportStandbys(
            partitions: figures.partitions, sessions: figures.sessions, recordsBehind: figures.recordsBehind)
    }

    /// From now on the table keeps entries for the views and follows the changelog, so entries
    /// handed over will be replaced or removed by what the new owner writes.
    func startReading() { reading.store(true, ordering: .relaxed) }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread.withLockedValue { $0 }?.join()
    }

    private func apply(_ record: KafkaRecord, profiles: ProfileTable, revision: UInt64) {
        let owned = table.withLockedValue { table in
            table.positions[record.partition] = record.offset + 1
            return table.owned.contains(record.partition)
        }
        guard !owned else { return }
        // A record this version cannot read is skipped here: the restore reports it.
        guard let decoded = try? ChangelogRecord.decode(key: record.key, value: record.value) else { return }
        let writtenAtMs = record.timestampMs > 0 ? record.timestampMs : WallClock.nowMs()
        apply(
            decoded, partition: record.partition, offset: record.offset, profiles: profiles, revision: revision,
            writtenAtMs: writtenAtMs)
    }

    func isOwned(_ partition: Int32) -> Bool { table.withLockedValue { $0.owned.contains(partition) } }

    /// Applies the changelog record at `offset` of `partition`, unless a worker of this
    /// instance owns it.
    func apply(
        _ decoded: ChangelogRecord, partition: Int32, offset: Int64, profiles: ProfileTable, revision: UInt64,
        writtenAtMs: Int64 = WallClock.nowMs()
    ) {
        table.withLockedValue { table in
            // Checked again: a worker may have claimed the partition while this was decoded.
            guard !table.owned.contains(partition) else { return }
            table.standbys.apply(decoded, partition: partition, offset: offset)
            guard reading.load(ordering: .relaxed) else { return }
            switch decoded {
            case .session(let session, _):
                table.entries[session.id] = LiveSessionEntry(
                    session, profiles: profiles, revision: revision, partition: partition, takenAtMs: writtenAtMs)
            case .finished(let id, _, _):
                table.entries[id] = nil
            case .removed(let key):
                if !key.hasPrefix(ChangelogRecord.finishedPrefix) { table.entries[key] = nil }
            }
        }
    }
}

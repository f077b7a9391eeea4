import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneEngine
import ZoneKafka

/// Follows the changelog of the partitions this instance's workers do not own, for two uses:
/// it keeps their warm standbys (``StandbyPartitions``), which a worker takes when the group
/// assigns it one of them (``takeStandby(_:)``), and it feeds the read-only table of the
/// group's live sessions for the endpoint's views (``GroupLiveTable``). It runs when either is
/// on. Recovery goes through here, never through the views.
///
/// The partitions this instance owns are not fetched (``ChangelogFollowing``): the workers
/// restore and write them.
final class ChangelogFollower: Sendable {
    private struct Followed {
        /// Partitions this instance's workers own.
        var owned: Set<Int32> = []
        /// The changelog's partition count, once the reader has started.
        var partitionCount: Int32 = 0
        /// The next offset of each partition after the last record the reader fetched.
        var positions: [Int32: Int64] = [:]
        var standbys = StandbyPartitions(limit: 0, settings: EngineSettings())
    }
    private let followed = NIOLockedValueBox(Followed())
    private let running = Atomic<Bool>(true)
    /// Whether the group has given this instance its first assignment: the changelog is read
    /// only from then on, so the sessions of partitions this instance is about to restore are
    /// never held here as well (that doubled a restart's memory).
    private let assignmentSeen = Atomic<Bool>(false)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)
    /// The partitions the reader fetches.
    let following = ChangelogFollowing()
    /// The views' table this follower feeds when the views are on.
    let views: GroupLiveTable

    init(views: GroupLiveTable) {
        self.views = views
    }

    /// The group gave this instance `partitions`: their changelog records are skipped from now
    /// on (the workers restore them), while the views' entries already held stay visible until
    /// each partition is claimed.
    func reserve(_ partitions: [Int32]) {
        followed.withLockedValue { $0.owned.formUnion(partitions) }
        assignmentSeen.store(true, ordering: .releasing)
        followUnowned()
    }

    /// A worker of this instance now owns `partition` and publishes its sessions itself.
    func claim(_ partition: Int32) {
        followed.withLockedValue { followed in _ = followed.owned.insert(partition) }
        views.claim(partition)
        followUnowned()
    }

    /// A worker of this instance no longer owns `partitions`; `standbys` holds the state of
    /// those it released whole, kept from there as their standbys, and `views` its last views
    /// of their sessions, kept in the group table until the new owner writes them.
    func release(
        _ partitions: Set<Int32>, standbys: [Int32: StandbyPartitions.Partition], views handed: [LiveSessionEntry]
    ) {
        views.release(partitions, handing: handed)
        followed.withLockedValue { followed in
            followed.owned.subtract(partitions)
            for partition in partitions { followed.standbys.release(partition, standbys[partition]) }
        }
        followUnowned()
    }

    /// The standby of `partition`, newly assigned to a worker of this instance, nil when there
    /// is none (the partition is restored in full).
    func takeStandby(_ partition: Int32) -> StandbyPartitions.Partition? {
        followed.withLockedValue { $0.standbys.take(partition) }
    }

    /// A rebalance ended: standbys over the limit are given up.
    func rebalanceEnded() {
        followed.withLockedValue { followed in followed.standbys.enforceLimit(owned: followed.owned) }
        followUnowned()
    }

    func isOwned(_ partition: Int32) -> Bool { followed.withLockedValue { $0.owned.contains(partition) } }

    /// What the standbys hold: partitions, live sessions, and changelog records they are behind
    /// the ends in `ends`.
    func standbyFigures(ends: [Int32: Int64]) -> (partitions: Int, sessions: Int, recordsBehind: Int64) {
        followed.withLockedValue { followed in
            (
                followed.standbys.partitions.count, followed.standbys.sessions,
                followed.standbys.recordsBehind(ends: ends)
            )
        }
    }

    /// Whether the follower feeds the views, and keeps standbys of up to `standbySessions`.
    func configure(views feedsViews: Bool, standbySessions: Int, settings: EngineSettings) {
        followed.withLockedValue { $0.standbys = StandbyPartitions(limit: standbySessions, settings: settings) }
        if feedsViews { views.startFeeding() }
    }

    /// Makes the reader fetch every partition no worker of this instance owns, once the group
    /// has given this instance its first assignment: a partition it did not fetch yet from its
    /// standby's next offset (what a released partition's state reflects), else from where the
    /// reader left it (from its start at first). Without the views, not the partitions whose
    /// standbys were given up.
    private func followUnowned() {
        following.follow {
            followed.withLockedValue { followed in
                guard assignmentSeen.load(ordering: .acquiring) else { return [:] }
                var starts: [Int32: Int64] = [:]
                let feedsViews = views.isFed
                for partition in 0..<followed.partitionCount where !followed.owned.contains(partition) {
                    // A given-up standby's records would be ignored, unless the views want them.
                    guard feedsViews || !followed.standbys.abandoned.contains(partition) else { continue }
                    starts[partition] =
                        followed.standbys.partitions[partition]?.nextOffset ?? followed.positions[partition]
                        ?? TopicPartition.beginning
                }
                return starts
            }
        }
    }

    /// Applies the changelog record at `offset` of `partition`, unless a worker of this
    /// instance owns it: to its standby, and to the views.
    func apply(
        _ decoded: ChangelogRecord, partition: Int32, offset: Int64, profiles: ProfileTable, revision: UInt64,
        writtenAtMs: Int64 = WallClock.nowMs()
    ) {
        let applied = followed.withLockedValue { followed in
            // Checked under the lock: a worker may have claimed the partition while this was decoded.
            guard !followed.owned.contains(partition) else { return false }
            followed.standbys.apply(decoded, partition: partition, offset: offset)
            return true
        }
        // The table checks the partition again under its own lock, so a claim between the two
        // is honoured there too.
        guard applied else { return }
        views.apply(decoded, partition: partition, profiles: profiles, revision: revision, writtenAtMs: writtenAtMs)
    }

    /// One fetched changelog record: its position noted, then applied unless owned here.
    /// `plans`: the reader thread's, so that the standbys and views of a class's sessions share
    /// one instance of its plan.
    fileprivate func apply(_ record: KafkaRecord, profiles: ProfileTable, revision: UInt64, plans: PlanInterner) {
        let owned = followed.withLockedValue { followed in
            followed.positions[record.partition] = record.offset + 1
            return followed.owned.contains(record.partition)
        }
        guard !owned else { return }
        // A record this version cannot read is skipped here: the restore reports it.
        guard let decoded = try? ChangelogRecord.decode(key: record.key, value: record.value, plans: plans) else {
            return
        }
        let writtenAtMs = record.timestampMs > 0 ? record.timestampMs : WallClock.nowMs()
        apply(
            decoded, partition: record.partition, offset: record.offset, profiles: profiles, revision: revision,
            writtenAtMs: writtenAtMs)
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread.withLockedValue { $0 }?.join()
    }
}

/// The reader's thread.
extension ChangelogFollower {
    /// Starts reading `configuration.topics.changelog`, for the views (with the endpoint on)
    /// and the standbys (`state.standby_sessions` above 0).
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
        followed.withLockedValue { $0.partitionCount = Int32(partitions) }
        following.attach(consumer, topic: topic, logger: logger)
        followUnowned()
        let follower = self
        let owner = configuration.stateOwner
        thread.withLockedValue {
            $0 = JoinableThread(name: "zs-changelog") {
                var nextReportMs: Int64 = 0
                let plans = PlanInterner()
                while follower.running.load(ordering: .relaxed) {
                    consumer.poll(timeoutMs: 100) { record in
                        // Another application's state (a changelog shared by hand) is neither
                        // shown nor kept as a standby; the restore refuses it.
                        guard !owner.isForeign(record) else { return }
                        follower.apply(record, profiles: profiles, revision: revisions(), plans: plans)
                    }
                    let now = WallClock.nowMs()
                    guard now >= nextReportMs else { continue }
                    nextReportMs = now + 1000
                    follower.reportStandbys(consumer: consumer, topic: topic, partitions: partitions, metrics: metrics)
                }
                follower.following.detach()
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
}

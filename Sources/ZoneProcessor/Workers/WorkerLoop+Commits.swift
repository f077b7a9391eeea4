import Dispatch
import Foundation
import Logging
import ZoneEngine
import ZoneKafka

extension WorkerLoop {
    /// The worker's committer: in a transaction of its own producer (exactly-once), or
    /// through the commit ledger with the processor's producer.
    static func committer(
        worker: PartitionWorker, context: WorkerContext, transactional: KafkaProducer?, output: OutputProducer
    ) -> any Committer {
        let configuration = context.configuration
        let topics = CommitTopics(
            input: configuration.topics.workoutEvents, changelog: configuration.topics.changelog,
            owner: configuration.stateOwner.header)
        if let transactional {
            return TransactionCommitter(producer: transactional, consumer: context.consumer, topics: topics)
        }
        var logger = context.logger
        logger[metadataKey: "worker"] = .stringConvertible(worker.index)
        return AtLeastOnceCommitter(
            consumer: context.consumer, producer: context.producer, topics: topics, deadLetters: output.deadLetters,
            latency: context.metrics.workers.deliveries, logger: logger)
    }

    /// Ends the current commit epoch: the offsets applied so far, the state they produced
    /// (encoded now, written once the epoch's outputs are delivered) and the outputs' tracker.
    mutating func sealEpoch() {
        context.metrics.workers.recordDeliveries()
        output.releaseStageCopies()
        let drained = drainChanges()
        liveViews.publish(drained)
        let changelog = changelogWrites(drained)
        updateLiveSessions()
        guard !failed else { return }
        let changed = Set(changelog.map(\.partition))
        var offsets: [Int32: Int64] = [:]
        for (partition, state) in partitions where state.hasUncommittedProgress || changed.contains(partition) {
            offsets[partition] = state.commitOffset
        }
        do {
            let progress = try committer.seal(
                CommitEpoch(outputs: output.tracker, offsets: offsets, changelog: changelog))
            record(progress)
            guard progress.sealed else { return }
            for (partition, offset) in offsets { partitions[partition]?.committedOffset = offset }
            _ = output.takeTracker()
        } catch {
            fail(error)
        }
    }

    /// Carries out the committer's steps until it waits for deliveries. `waiting`: keep going
    /// until every sealed epoch is committed (revocation, shutdown), for at most a minute;
    /// what is left then is replayed by the next owner.
    mutating func advanceEpochs(waiting: Bool) {
        record(committer.advance(waiting: waiting))
    }

    private mutating func record(_ progress: CommitProgress) {
        if progress.changelogRecords > 0 { context.metrics.countChangelogRecords(progress.changelogRecords) }
        for nanoseconds in progress.commitNanoseconds { context.metrics.countCommit(nanoseconds: nanoseconds) }
        for partition in progress.rewrites where partitions[partition] != nil { changelogRewrites.insert(partition) }
    }

    /// Takes what changed in each partition since the last seal: all of a partition's state
    /// when an earlier changelog write of it was lost.
    mutating func drainChanges() -> [PartitionChanges] {
        var drained: [PartitionChanges] = []
        for partition in Array(partitions.keys) {
            let rewrite = changelogRewrites.remove(partition) != nil
            guard
                let changes = rewrite
                    ? partitions[partition]?.store.drainEverything() : partitions[partition]?.store.drainChanges()
            else { continue }
            drained.append(PartitionChanges(partition: partition, changes: changes))
        }
        return drained
    }

    /// The changelog records of the drained changes: a session's state, a finished marker
    /// with its tombstone, or a forgotten marker's tombstone.
    func changelogWrites(_ drained: [PartitionChanges]) -> [ChangelogWrite] {
        var writes: [ChangelogWrite] = []
        for (partition, changes) in drained.map({ ($0.partition, $0.changes) }) {
            guard let state = partitions[partition] else { continue }
            for (id, wallMs) in changes.finished {
                writes.append(ChangelogWrite(partition: partition, key: id, value: nil))
                let marker = ChangelogRecord.encodeFinished(wallMs: wallMs, appliedThrough: state.appliedThrough(id))
                writes.append(ChangelogWrite(partition: partition, key: ChangelogRecord.finishedKey(id), value: marker))
            }
            for id in changes.forgotten {
                writes.append(ChangelogWrite(partition: partition, key: ChangelogRecord.finishedKey(id), value: nil))
            }
            for session in changes.updated {
                let value = ChangelogRecord.encodeSession(
                    session, appliedThrough: state.appliedThrough(session.id),
                    format: context.configuration.snapshotFormat)
                writes.append(ChangelogWrite(partition: partition, key: session.id, value: value))
            }
        }
        return writes
    }
}

/// What changed in one partition's store since the last seal.
struct PartitionChanges {
    let partition: Int32
    let changes: (updated: [WorkoutSession], finished: [(id: String, wallMs: Int64)], forgotten: [String])
}

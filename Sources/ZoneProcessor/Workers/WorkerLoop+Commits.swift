import Dispatch
import Foundation
import Logging
import ZoneEngine
import ZoneKafka

extension WorkerLoop {
    /// Ends the current commit epoch: the offsets applied so far, the state they produced
    /// (encoded now, written once the epoch's outputs are delivered) and the outputs' tracker.
    mutating func sealEpoch() {
        context.metrics.workers.recordDeliveries()
        output.releaseStageCopies()
        let drained = drainChanges()
        publishLiveViews(drained)
        let changelog = changelogWrites(drained)
        updateLiveSessions()
        if transactions != nil { return commitTransaction(changelog: changelog) }
        let changed = Set(changelog.map(\.partition))
        var offsets: [Int32: Int64] = [:]
        for (partition, state) in partitions where state.hasUncommittedProgress || changed.contains(partition) {
            offsets[partition] = state.commitOffset
        }
        guard !offsets.isEmpty else { return }
        for (partition, offset) in offsets { partitions[partition]?.committedOffset = offset }
        ledger.seal(CommitEpoch(outputs: output.takeTracker(), offsets: offsets, changelog: changelog))
    }

    /// Carries out the ledger's steps until it waits for deliveries. `waiting`: keep going
    /// until every sealed epoch is committed (revocation, shutdown), for at most a minute;
    /// what is left then is replayed by the next owner.
    mutating func advanceEpochs(waiting: Bool) {
        let deadline = WallClock.nowMs() + 60_000
        while true {
            advanceLedger()
            guard waiting, !ledger.isEmpty else { break }
            if WallClock.nowMs() > deadline {
                context.logger.warning(
                    "outputs not delivered within 60 s; their offsets stay uncommitted",
                    metadata: [
                        "worker": .stringConvertible(worker.index), "epochs": .stringConvertible(ledger.epochs.count),
                    ])
                break
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
        // At a revocation or shutdown the offsets must reach Kafka: retry a failed commit briefly.
        var attempts = 0
        while waiting && !unacknowledgedOffsets.isEmpty && attempts < 20 {
            attempts += 1
            Thread.sleep(forTimeInterval: 0.1)
            commitUnacknowledged()
        }
    }

    private mutating func advanceLedger() {
        while true {
            switch ledger.nextStep() {
            case .wait:
                return
            case .answer(let failures, let tracker):
                for failure in failures { output.deadLetters.resolve(failure, into: tracker) }
            case .writeChangelog(let epoch, let writes):
                let (tracker, refused) = produceChangelog(writes)
                ledger.changelogProduced(epoch: epoch, tracker: tracker, refused: refused)
            case .commit(let offsets, let rewrite, let error):
                if !rewrite.isEmpty {
                    context.logger.error(
                        "changelog write failed; the partition's state is written again",
                        metadata: [
                            "partitions": .array(rewrite.sorted().map { .stringConvertible($0) }),
                            "error": "\(error ?? "refused")",
                        ])
                    for partition in rewrite where partitions[partition] != nil { changelogRewrites.insert(partition) }
                }
                unacknowledgedOffsets.merge(offsets) { max($0, $1) }
                commitUnacknowledged()
            }
        }
    }

    /// Produces changelog records; returns their tracker and the partitions whose records
    /// librdkafka refused at once.
    private func produceChangelog(_ writes: [ChangelogWrite]) -> (DeliveryTracker, Set<Int32>) {
        let tracker = DeliveryTracker(latency: context.metrics.workers.deliveries)
        var refused: Set<Int32> = []
        let topic = context.configuration.topics.changelog
        let owner = context.configuration.stateOwner.header
        for write in writes {
            do {
                try output.producer.produce(
                    topic: topic, key: Array(write.key.utf8), value: write.value, tracker: tracker,
                    partition: write.partition, header: owner)
            } catch {
                refused.insert(write.partition)
            }
        }
        context.metrics.countChangelogRecords(writes.count)
        return (tracker, refused)
    }

    /// Commits every delivered offset not yet acknowledged by Kafka; keeps them on failure.
    mutating func commitUnacknowledged() {
        guard !unacknowledgedOffsets.isEmpty else { return }
        let topic = context.configuration.topics.workoutEvents
        let offsets = unacknowledgedOffsets.map { TopicPartition(topic: topic, partition: $0.key, offset: $0.value) }
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            try context.consumer.commit(offsets)
            unacknowledgedOffsets.removeAll()
            context.metrics.countCommit(nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
        } catch {
            // Not fatal: retried with the next commit; if it never lands, the work is replayed
            // (outputs repeat with identical content, which the contract allows).
            commitFailures.log(to: context.logger, metadata: ["error": "\(error)"])
        }
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

import Dispatch
import Foundation
import ZoneKafka

/// One commit interval's work on its way to being committed (at-least-once).
///
/// The invariant: state never runs ahead of delivered outputs. An epoch goes through three
/// steps, strictly in epoch order:
/// 1. its outputs (zone changes, finished workouts, dead letters) are all delivered, or
///    answered: produced again after a retriable error, or their input dead-lettered as
///    `output_rejected` after a permanent one (and that dead letter delivered);
/// 2. only then are its changelog records produced: the state as of the epoch's seal,
///    encoded at the seal (so nothing applied later leaks into them);
/// 3. only once those are delivered are its input offsets committed.
/// A crash anywhere replays the uncommitted records against the last delivered changelog
/// state, so outputs repeat (identical) rather than go missing (docs/guarantees.md).
struct CommitEpoch {
    /// The outputs produced while the epoch was open.
    let outputs: DeliveryTracker
    /// The next offset of each partition with progress, as applied at the seal.
    var offsets: [Int32: Int64]
    /// The changelog records of the state at the seal, produced once the outputs are settled.
    var changelog: [ChangelogWrite]
    /// The changelog records' tracker, once they are produced.
    var changelogTracker: DeliveryTracker?
    /// Partitions whose changelog records could not even be queued.
    var changelogRefused: Set<Int32> = []
}

/// One changelog record: a session's state, a finished marker or a tombstone (nil value).
struct ChangelogWrite {
    let partition: Int32
    let key: String
    let value: [UInt8]?
}

extension WorkerLoop {
    /// Ends the current commit epoch: the offsets applied so far, the state they produced
    /// (encoded now, written once the epoch's outputs are delivered) and the outputs' tracker.
    mutating func sealEpoch() {
        let changelog = changelogWrites()
        updateLiveSessions()
        if transactions != nil { return commitTransaction(changelog: changelog) }
        let changed = Set(changelog.map(\.partition))
        var offsets: [Int32: Int64] = [:]
        for (partition, state) in partitions where state.hasUncommittedProgress || changed.contains(partition) {
            offsets[partition] = state.nextOffset
        }
        guard !offsets.isEmpty else { return }
        for partition in offsets.keys { partitions[partition]!.committedOffset = offsets[partition]! }
        sealedEpochs.append(CommitEpoch(outputs: sink.tracker, offsets: offsets, changelog: changelog))
        sink.tracker = DeliveryTracker()
    }

    /// Moves sealed epochs through their steps, oldest first, and commits the offsets of those
    /// done. `waiting`: keep going until every sealed epoch is committed (revocation,
    /// shutdown), for at most a minute; what is left then is replayed by the next owner.
    mutating func advanceEpochs(waiting: Bool) {
        let deadline = WallClock.nowMs() + 60_000
        while true {
            advanceEpochsOnce()
            guard waiting, !sealedEpochs.isEmpty else { break }
            if WallClock.nowMs() > deadline {
                context.logger.warning("outputs not delivered within 60 s; their offsets stay uncommitted", metadata: [
                    "worker": "\(worker.index)", "epochs": "\(sealedEpochs.count)"])
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

    private mutating func advanceEpochsOnce() {
        // Steps 1 and 2, in order: a later epoch's changelog never overtakes an earlier one's.
        for index in sealedEpochs.indices {
            if sealedEpochs[index].changelogTracker != nil { continue }
            guard outputsSettled(sealedEpochs[index].outputs) else { break }
            produceChangelog(epoch: index)
        }
        // Step 3, from the front.
        while let epoch = sealedEpochs.first, let written = epoch.changelogTracker, written.inFlight == 0 {
            sealedEpochs.removeFirst()
            var lost = epoch.changelogRefused
            for failure in written.takeFailures() { lost.insert(failure.partition ?? -1) }
            if !lost.isEmpty { changelogLost(partitions: lost, error: written.lastError) }
            unacknowledgedOffsets.merge(epoch.offsets.filter { !lost.contains($0.key) }) { max($0, $1) }
            commitUnacknowledged()
        }
    }

    /// Whether every output of an epoch is delivered or answered; answers the refused ones
    /// (into the same tracker, so the epoch waits for the answers too).
    private mutating func outputsSettled(_ outputs: DeliveryTracker) -> Bool {
        guard outputs.inFlight == 0 else { return false }
        for failure in outputs.takeFailures() { sink.resolve(failure, into: outputs) }
        return outputs.inFlight == 0
    }

    private mutating func produceChangelog(epoch index: Int) {
        let tracker = DeliveryTracker()
        let topic = context.configuration.topics.changelog
        for write in sealedEpochs[index].changelog {
            do {
                try sink.producer.produce(
                    topic: topic, key: Array(write.key.utf8), value: write.value, tracker: tracker,
                    partition: write.partition)
            } catch {
                sealedEpochs[index].changelogRefused.insert(write.partition)
            }
        }
        context.metrics.countChangelogRecords(sealedEpochs[index].changelog.count)
        sealedEpochs[index].changelog = []
        sealedEpochs[index].changelogTracker = tracker
    }

    /// A partition's changelog lost a write: its offsets in this and every later epoch stay
    /// uncommitted, and its next epoch rewrites its whole state (then commits past them).
    private mutating func changelogLost(partitions lost: Set<Int32>, error: String?) {
        context.logger.error("changelog write failed; the partition's state is written again", metadata: [
            "partitions": "\(lost.sorted())", "error": "\(error ?? "refused")"])
        for index in sealedEpochs.indices {
            for partition in lost { sealedEpochs[index].offsets[partition] = nil }
        }
        for partition in lost where partitions[partition] != nil { changelogRewrites.insert(partition) }
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
            context.logger.warning("commit failed; will retry", metadata: ["error": "\(error)"])
        }
    }

    /// What changed in each partition since the last epoch, as changelog records (all of a
    /// partition's state when an earlier write of it was lost). Also refreshes the live views.
    mutating func changelogWrites() -> [ChangelogWrite] {
        var writes: [ChangelogWrite] = []
        var published = false
        for partition in Array(partitions.keys) {
            let rewrite = changelogRewrites.remove(partition) != nil
            let changes = rewrite ? partitions[partition]!.store.drainEverything() : partitions[partition]!.store.drainChanges()
            published = updateLiveViews(changes, partition: partition) || published
            let state = partitions[partition]!
            for (id, wallMs) in changes.finished {
                writes.append(ChangelogWrite(partition: partition, key: id, value: nil))
                let marker = ChangelogRecord.encodeFinished(wallMs: wallMs, appliedThrough: state.appliedThrough(id))
                writes.append(ChangelogWrite(partition: partition, key: ChangelogRecord.finishedKey(id), value: marker))
            }
            for id in changes.forgotten {
                writes.append(ChangelogWrite(partition: partition, key: ChangelogRecord.finishedKey(id), value: nil))
            }
            for session in changes.updated {
                let value = ChangelogRecord.encodeSession(session, appliedThrough: state.appliedThrough(session.id))
                writes.append(ChangelogWrite(partition: partition, key: session.id, value: value))
            }
        }
        if published { context.directory.publish(worker: worker.index, liveViews) }
        return writes
    }
}

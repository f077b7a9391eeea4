import Dispatch
import ZoneEngine

/// The commands the processor sends a worker: partitions assigned (restored, then applied),
/// revoked (sealed, committed and handed over as warm standbys) and the stop.
extension WorkerLoop {
    /// Carries out every command sent since the last call.
    mutating func handleCommands() {
        lastPartition = nil
        for command in worker.takeCommands() {
            switch command {
            case .assign(let assigned):
                for partition in assigned {
                    defer { context.metrics.restoring(-1) }
                    guard partitions[partition] == nil, !failed, let state = restore(partition) else { continue }
                    partitions[partition] = state
                    liveViews.publishRestored(state.store.sessions, partition: partition)
                    context.changelogFollower.claim(partition)
                }
                updateLiveSessions()
            case .revoke(let revoked, let done):
                sealEpoch()
                advanceEpochs(waiting: true)
                var standbys: [Int32: StandbyPartitions.Partition] = [:]
                for partition in revoked {
                    context.budget.release(partitions[partition]?.store.sessions ?? [])
                    if let state = partitions.removeValue(forKey: partition) {
                        join.dropped(state)
                        standbys[partition] = lifecycle.standby(
                            releasing: partition, state, rewritePending: changelogRewrites.contains(partition))
                    }
                    committer.forget(partition)
                    changelogRewrites.remove(partition)
                }
                // The group table takes the sessions' last views before this worker withdraws
                // them, so a query finds them throughout.
                let handed = liveViews.withdraw(Set(revoked))
                context.changelogFollower.release(Set(revoked), standbys: standbys, views: handed)
                liveViews.publishRemaining()
                updateLiveSessions()
                done.signal()
            case .stop(let done):
                sealEpoch()
                advanceEpochs(waiting: true)
                for state in partitions.values { context.budget.release(state.store.sessions) }
                for state in partitions.values { join.dropped(state) }
                partitions.removeAll()
                _ = liveViews.withdraw(nil)
                liveViews.publishRemaining()
                updateLiveSessions()
                stopped = true
                done.signal()
            }
        }
    }

    /// A newly assigned partition's state; nil when stopping, and when it could not be
    /// restored (the worker then stops).
    private mutating func restore(_ partition: Int32) -> PartitionState? {
        do {
            return try lifecycle.restoredState(partition)
        } catch {
            fail(error)
            return nil
        }
    }
}

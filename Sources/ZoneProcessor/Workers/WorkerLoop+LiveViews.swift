import ZoneEngine

/// Publishing the worker's sessions to the session directory (when `publishesLiveSessions`).
extension WorkerLoop {
    /// Applies the partitions' changes since the last seal to `liveViews` and publishes them
    /// when anything changed.
    mutating func publishLiveViews(_ drained: [PartitionChanges]) {
        var changed = false
        for partition in drained {
            changed = updateLiveViews(partition.changes, partition: partition.partition) || changed
        }
        if changed { context.directory.publish(worker: worker.index, liveViews) }
    }

    /// Applies one partition's changes since the last seal to `liveViews`; true when anything
    /// changed.
    private mutating func updateLiveViews(
        _ changes: (updated: [WorkoutSession], finished: [(id: String, wallMs: Int64)], forgotten: [String]),
        partition: Int32
    ) -> Bool {
        guard context.configuration.publishesLiveSessions else { return false }
        guard !changes.updated.isEmpty || !changes.finished.isEmpty else { return false }
        let revision = context.directory.nextRevision()
        for (id, _) in changes.finished { liveViews[id] = nil }
        for session in changes.updated {
            liveViews[session.id] = LiveSessionEntry(
                session, profiles: context.profiles, revision: revision, partition: partition)
        }
        return true
    }

    /// Publishes sessions restored with a newly assigned partition (the changelog follower then
    /// stops feeding them to the group table).
    mutating func publishRestored(_ sessions: [WorkoutSession], partition: Int32) {
        guard context.configuration.publishesLiveSessions, !sessions.isEmpty else { return }
        let revision = context.directory.nextRevision()
        for session in sessions {
            liveViews[session.id] = LiveSessionEntry(
                session, profiles: context.profiles, revision: revision, partition: partition)
        }
        context.directory.publish(worker: worker.index, liveViews)
    }

    /// Withdraws the sessions of revoked partitions from the views this worker publishes and
    /// returns them, for the group table to keep until their new owner writes them; at a stop
    /// (`partitions` nil) withdraws all of them.
    mutating func withdrawViews(of revoked: Set<Int32>?) -> [LiveSessionEntry] {
        guard context.configuration.publishesLiveSessions else { return [] }
        guard let revoked else {
            liveViews = [:]
            return []
        }
        let handedOver = liveViews.values.filter { revoked.contains($0.partition) }
        liveViews = liveViews.filter { !revoked.contains($0.value.partition) }
        return Array(handedOver)
    }

    /// Publishes what ``withdrawViews(of:)`` left.
    func publishRemainingViews() {
        guard context.configuration.publishesLiveSessions else { return }
        context.directory.publish(worker: worker.index, liveViews)
    }
}

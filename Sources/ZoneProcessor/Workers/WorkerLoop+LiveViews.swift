import ZoneEngine

/// Publishing the worker's sessions to the session directory (when `publishesLiveSessions`).
extension WorkerLoop {
    /// Applies one partition's changes since the last commit interval to `liveViews`;
    /// true when anything changed.
    mutating func updateLiveViews(
        _ changes: (updated: [WorkoutSession], finished: [(id: String, wallMs: Int64)], forgotten: [String]),
        partition: Int32
    ) -> Bool {
        guard context.configuration.publishesLiveSessions else { return false }
        guard !changes.updated.isEmpty || !changes.finished.isEmpty else { return false }
        let revision = context.directory.nextRevision()
        for (id, _) in changes.finished { liveViews[id] = nil }
        for session in changes.updated {
            liveViews[session.id] = LiveSessionEntry(session, profiles: context.profiles, revision: revision, partition: partition)
        }
        return true
    }

    /// Publishes sessions restored with a newly assigned partition.
    mutating func publishRestored(_ sessions: [WorkoutSession], partition: Int32) {
        guard context.configuration.publishesLiveSessions, !sessions.isEmpty else { return }
        let revision = context.directory.nextRevision()
        for session in sessions {
            liveViews[session.id] = LiveSessionEntry(session, profiles: context.profiles, revision: revision, partition: partition)
        }
        context.directory.publish(worker: worker.index, liveViews)
    }

    /// Withdraws the sessions of revoked partitions (all of them when `partitions` is nil).
    mutating func unpublish(partitions revoked: Set<Int32>?) {
        guard context.configuration.publishesLiveSessions else { return }
        if let revoked {
            liveViews = liveViews.filter { !revoked.contains($0.value.partition) }
        } else {
            liveViews = [:]
        }
        context.directory.publish(worker: worker.index, liveViews)
    }
}

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
            liveViews[session.id] = LiveSessionEntry(
                session, profiles: context.profiles, revision: revision, partition: partition)
        }
        return true
    }

    /// Publishes sessions restored with a newly assigned partition, which the group table then
    /// stops keeping.
    mutating func publishRestored(_ sessions: [WorkoutSession], partition: Int32) {
        guard context.configuration.publishesLiveSessions else { return }
        if !sessions.isEmpty {
            let revision = context.directory.nextRevision()
            for session in sessions {
                liveViews[session.id] = LiveSessionEntry(
                    session, profiles: context.profiles, revision: revision, partition: partition)
            }
            context.directory.publish(worker: worker.index, liveViews)
        }
        context.directory.claim(partition: partition)
    }

    /// Withdraws the sessions of revoked partitions, handing them to the group table; at a
    /// stop (`partitions` nil) withdraws all of them.
    mutating func unpublish(partitions revoked: Set<Int32>?) {
        guard context.configuration.publishesLiveSessions else { return }
        guard let revoked else {
            liveViews = [:]
            context.directory.publish(worker: worker.index, liveViews)
            return
        }
        let handedOver = liveViews.values.filter { revoked.contains($0.partition) }
        liveViews = liveViews.filter { !revoked.contains($0.value.partition) }
        context.directory.release(worker: worker.index, remaining: liveViews, handedOver: handedOver)
    }
}

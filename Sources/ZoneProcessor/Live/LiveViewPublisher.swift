import ZoneEngine

/// A worker's live views: the state of its sessions as last published to the session
/// directory, kept on the worker's thread and published whole at each seal that changed them
/// (only when `publishesLiveSessions`; otherwise it does nothing).
struct LiveViewPublisher {
    private let worker: Int
    private let directory: LiveSessionDirectory
    private let profiles: ProfileTable
    private let enabled: Bool
    private var views: [String: LiveSessionEntry] = [:]

    init(worker: Int, directory: LiveSessionDirectory, profiles: ProfileTable, enabled: Bool) {
        self.worker = worker
        self.directory = directory
        self.profiles = profiles
        self.enabled = enabled
    }

    /// Applies the partitions' changes since the last seal and publishes the views when
    /// anything changed.
    mutating func publish(_ drained: [PartitionChanges]) {
        guard enabled else { return }
        var changed = false
        for partition in drained {
            changed = update(partition.changes, partition: partition.partition) || changed
        }
        if changed { directory.publish(worker: worker, views) }
    }

    /// Applies one partition's changes since the last seal; true when anything changed.
    private mutating func update(
        _ changes: (updated: [WorkoutSession], finished: [(id: String, wallMs: Int64)], forgotten: [String]),
        partition: Int32
    ) -> Bool {
        guard !changes.updated.isEmpty || !changes.finished.isEmpty else { return false }
        let revision = directory.nextRevision()
        for (id, _) in changes.finished { views[id] = nil }
        for session in changes.updated {
            views[session.id] = LiveSessionEntry(session, profiles: profiles, revision: revision, partition: partition)
        }
        return true
    }

    /// Publishes sessions restored with a newly assigned partition (the changelog follower then
    /// stops feeding them to the group table).
    mutating func publishRestored(_ sessions: [WorkoutSession], partition: Int32) {
        guard enabled, !sessions.isEmpty else { return }
        let revision = directory.nextRevision()
        for session in sessions {
            views[session.id] = LiveSessionEntry(session, profiles: profiles, revision: revision, partition: partition)
        }
        directory.publish(worker: worker, views)
    }

    /// Withdraws the sessions of revoked partitions and returns them, for the group table to
    /// keep until their new owner writes them; at a stop (`revoked` nil) withdraws all of them.
    /// Publishes what is left.
    mutating func withdraw(_ revoked: Set<Int32>?) -> [LiveSessionEntry] {
        guard enabled else { return [] }
        var handedOver: [LiveSessionEntry] = []
        if let revoked {
            handedOver = views.values.filter { revoked.contains($0.partition) }
            views = views.filter { !revoked.contains($0.value.partition) }
        } else {
            views = [:]
        }
        return handedOver
    }

    /// Publishes the views as they are (after ``withdraw(_:)``, once the group table holds
    /// what was handed over).
    func publishRemaining() {
        guard enabled else { return }
        directory.publish(worker: worker, views)
    }
}

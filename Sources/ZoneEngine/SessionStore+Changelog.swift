/// What the changelog needs of a store: sessions put back after a move, and what changed.
extension SessionStore {
    /// Puts back a session restored from elsewhere (a changelog), replacing one with its id.
    /// Nothing is marked changed: the changelog holds it already.
    public mutating func restore(_ session: WorkoutSession) {
        if let slot = slots.slot(of: session.id) {
            live[slot] = session
        } else {
            insert(session, changed: false)
        }
    }

    /// Drops a restored session that a later changelog record removed; no output.
    public mutating func forget(_ id: String) {
        guard let slot = slots.slot(of: id) else { return }
        _ = remove(slot: slot)
    }

    /// Puts back a finished session's id, restored from elsewhere, for the rest of its retention.
    public mutating func restoreFinished(_ id: String, wallMs: Int64) {
        finishedAt[id] = wallMs
    }

    /// Drops a restored finished id that a later changelog record removed.
    public mutating func forgetFinished(_ id: String) {
        finishedAt[id] = nil
    }

    /// Hands over what changed since the last call: the sessions to write to the changelog,
    /// the ids that finished, and the finished ids past their retention.
    public mutating func drainChanges() -> (
        updated: [WorkoutSession], finished: [(id: String, wallMs: Int64)], forgotten: [String]
    ) {
        var updated: [WorkoutSession] = []
        for id in changes.updated {
            guard let slot = slots.slot(of: id), dirty[slot] else { continue }
            dirty[slot] = false
            updated.append(live[slot])
        }
        let finished = changes.finished.filter { finishedAt[$0.id] == $0.wallMs && slots.slot(of: $0.id) == nil }
        defer { changes = StoreChanges() }
        return (updated, finished, changes.forgotten)
    }

    /// Like ``drainChanges()``, but hands over every live session and every finished id still
    /// retained: for rewriting a partition's whole state after a changelog write was lost.
    public mutating func drainEverything() -> (
        updated: [WorkoutSession], finished: [(id: String, wallMs: Int64)], forgotten: [String]
    ) {
        let drained = drainChanges()
        return (live, finishedAt.map { (id: $0.key, wallMs: $0.value) }, drained.forgotten)
    }
}

/// Finishing sessions: at `session_end`, or by the idle timeout; and forgetting finished ids.
extension SessionStore {
    /// Finishes sessions with no applied event for the idle timeout, and forgets finished
    /// ids past their retention. Call it on a timer.
    public mutating func expire(wallMs: Int64, outputs: inout EngineOutputs) {
        let idle = live.filter { wallMs - $0.lastAppliedWallMs >= settings.idleTimeoutMs }.map(\.id)
        for id in idle.sorted() {
            guard let slot = slots.slot(of: id) else { continue }
            releaseHeld(slot: slot, through: .max, wallMs: wallMs, outputs: &outputs)
            finish(slot: slot, at: live[slot].latestTimestamp, reason: .idleTimeout, wallMs: wallMs, outputs: &outputs)
        }
        for (id, finished) in finishedAt where wallMs - finished >= settings.finishedRetentionMs {
            finishedAt[id] = nil
            changes.forgotten.append(id)
        }
    }

    /// Starts every live session's idle time, and every finished id's retention, again at
    /// `wallMs`: after a restore, times stamped by another owner's clock are not comparable with
    /// the new owner's, and a restart is never a session's silence.
    public mutating func restartIdleClocks(at wallMs: Int64) {
        for slot in live.indices { live[slot].lastAppliedWallMs = wallMs }
        for id in Array(finishedAt.keys) { finishedAt[id] = wallMs }
    }

    mutating func finish(
        slot: Int, at end: Int64, reason: WorkoutSummary.EndReason, wallMs: Int64,
        outputs: inout EngineOutputs
    ) {
        do {
            let summary = try live[slot].finish(at: end, reason: reason, settings: settings)
            let removed = remove(slot: slot)
            finishedAt[removed.id] = wallMs
            changes.finished.append((removed.id, wallMs))
            outputs.finished(summary)
        } catch {
            outputs.reject(error)
        }
    }
}

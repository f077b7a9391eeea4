import Dispatch
import Logging
import ZoneEngine
import ZoneKafka

/// Restoring a newly assigned partition's sessions from the changelog, before its input.
extension WorkerLoop {
    /// The group's committed offset of an input partition; -1 when none or unknown.
    func committedOffset(of partition: Int32, timeoutMs: Int32 = 5000) -> Int64 {
        let topic = TopicPartition(topic: context.configuration.topics.workoutEvents, partition: partition)
        let committed = try? context.consumer.committed([topic], timeoutMs: timeoutMs).first?.offset
        return max(-1, committed ?? -1)
    }

    /// A newly assigned partition's state, restored from the changelog; nil (and the worker
    /// stops) when the changelog cannot be read.
    mutating func restoredState(_ partition: Int32) -> PartitionState? {
        var state = PartitionState(settings: context.configuration.engine, wallMs: WallClock.nowMs())
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            let restorer =
                try self.restorer ?? ChangelogRestorer(configuration: context.configuration, logger: context.logger)
            self.restorer = restorer
            let restored = try restorer.restore(
                partition: partition, into: &state.store, isStopping: context.isStopping)
            state.replaySkip = restored.sessionsAppliedThrough
            for (id, appliedThrough) in restored.finishedAppliedThrough {
                state.replaySkip[id] = max(state.replaySkip[id] ?? -1, appliedThrough)
            }
            state.replayHorizon = state.replaySkip.values.max() ?? -1
            // Times stamped by an earlier owner's clock say nothing on this one's: idle time and
            // retention start again now (a restart is never a session's silence).
            state.store.restartIdleClocks(at: state.idleClock.time(at: WallClock.nowMs()))
            state.assignedOffset = committedOffset(of: partition)
            context.budget.add(restored.sessionsAppliedThrough.count)
            let elapsedMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
            context.metrics.countRestore(
                sessions: restored.sessionsAppliedThrough.count, microseconds: Int(elapsedMs * 1000),
                refused: restored.recordsRefused
            )
            if restored.recordsRead > 0 {
                context.logger.info(
                    "partition restored",
                    metadata: [
                        "partition": .stringConvertible(partition),
                        "sessions": .stringConvertible(restored.sessionsAppliedThrough.count),
                        "finished": .stringConvertible(restored.finishedAppliedThrough.count),
                        "records": .stringConvertible(restored.recordsRead),
                        "ms": .stringConvertible(Int(elapsedMs)),
                    ])
            }
            return state
        } catch {
            // Shutting down: the partition is left unapplied, nothing of it is committed.
            if context.isStopping() { return nil }
            fail(error as? ProcessorError ?? ProcessorError(.restoring, partition: partition, reason: "\(error)"))
            return nil
        }
    }
}

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

    /// A newly assigned partition's state: its standby on this instance, if it has one, with
    /// the changelog's tail read on top; else restored from the whole changelog. Nil (and the
    /// worker stops) when the changelog cannot be read, and when the processor is stopping.
    mutating func restoredState(_ partition: Int32) -> PartitionState? {
        // Stopping, the partition is never applied, and the broker is not asked about it: while
        // the consumer leaves the group a query of its committed offset waits out its timeout,
        // which made a stop that met an assignment take 5 s per partition.
        guard !context.isStopping() else { return nil }
        var state = PartitionState(settings: context.configuration.engine, wallMs: WallClock.nowMs())
        let started = DispatchTime.now().uptimeNanoseconds
        let standby = context.changelogFollower.takeStandby(partition)
        var restored = standby?.restored ?? ChangelogRestorer.Restored()
        if let standby { state.store = standby.store }
        let standbySessions = state.store.liveCount
        do {
            let restorer =
                try self.restorer ?? ChangelogRestorer(configuration: context.configuration, logger: context.logger)
            self.restorer = restorer
            try restorer.restore(
                partition: partition, into: &state.store, &restored, from: standby?.nextOffset ?? 0,
                metrics: context.metrics.state, isStopping: context.isStopping)
        } catch {
            // Shutting down: the partition is left unapplied, nothing of it is committed.
            if context.isStopping() { return nil }
            fail(error as? ProcessorError ?? ProcessorError(.restoring, partition: partition, reason: "\(error)"))
            return nil
        }
        guard !context.isStopping() else { return nil }
        state.replaySkip = restored.sessionsAppliedThrough
        for (id, appliedThrough) in restored.finishedAppliedThrough {
            state.replaySkip[id] = max(state.replaySkip[id] ?? -1, appliedThrough)
        }
        state.replayHorizon = state.replaySkip.values.max() ?? -1
        // Times stamped by an earlier owner's clock say nothing on this one's: idle time and
        // retention start again now (a restart is never a session's silence).
        state.store.restartIdleClocks(at: state.idleClock.time(at: WallClock.nowMs()))
        state.assignedOffset = committedOffset(of: partition)
        context.budget.add(state.store.sessions)
        let elapsedMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        context.metrics.countRestore(
            sessions: state.store.liveCount, microseconds: Int(elapsedMs * 1000), refused: restored.recordsRefused)
        if restored.recordsRead > 0 || standby != nil {
            var metadata: Logger.Metadata = [
                "partition": .stringConvertible(partition),
                "sessions": .stringConvertible(state.store.liveCount),
                "finished": .stringConvertible(restored.finishedAppliedThrough.count),
                "records": .stringConvertible(restored.recordsRead),
                "ms": .stringConvertible(Int(elapsedMs)),
            ]
            if standby != nil { metadata["standby_sessions"] = .stringConvertible(standbySessions) }
            context.logger.info("partition restored", metadata: metadata)
        }
        return state
    }
}

import ZoneEngine
import ZoneKafka

/// Idle timeouts: a partition's idle clock runs only while it is caught up, and timeouts wait
/// out a stall of the worker (docs/reference/contract.md, "Idle timeout"; docs/explanation/guarantees.md).
extension WorkerLoop {
    /// Ends sessions idle for the idle timeout by their partition's idle clock, which runs only
    /// while the partition is caught up and not after a stall (``IdleClock``).
    mutating func expireIdleSessions(now: Int64) {
        for partition in Array(partitions.keys) {
            let caughtUp = isCaughtUp(partition)
            let graceMs = stallGraceMs
            guard
                partitions[partition]?.idleClock.advance(
                    to: now, caughtUp: caughtUp, graceMs: graceMs) == true,
                let time = partitions[partition]?.idleClock.time(at: now)
            else { continue }
            partitions[partition]?.store.expire(wallMs: time, outputs: &outputs)
            produceOutputs(of: .none(partition: partition))
        }
        updateLiveSessions()
    }

    /// How long idle timeouts wait after a stall.
    var stallGraceMs: Int64 { context.configuration.stallGraceMs }

    /// Whether this instance has read and applied every record the broker held for
    /// `partition`, as far as the last fetch response and the assignment told (no request to
    /// the broker).
    func isCaughtUp(_ partition: Int32) -> Bool {
        let topicPartition = TopicPartition(topic: context.configuration.topics.workoutEvents, partition: partition)
        // A partition holding sessions back for the tables has records waiting.
        guard let state = partitions[partition], state.parked.isEmpty else { return false }
        let position = (try? context.consumer.positions([topicPartition]).first?.offset) ?? -1
        return state.isCaughtUp(known: context.consumer.knownWatermarks(topicPartition), position: position)
    }
}

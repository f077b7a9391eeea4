import CoreMetrics
import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Moves partitions between workers on rebalances: forwards an assigned partition's records
/// to its worker's queue; on revocation stops forwarding and waits until the worker has
/// committed what it applied and dropped the partition's sessions.
final class RebalanceHandler: RebalanceListener {
    let workers: [PartitionWorker]
    let metrics: ProcessorMetrics
    let logger: Logger
    /// Called with each assignment before the workers get it (the group table stops reading
    /// those partitions' changelog), and after.
    let onAssigning: @Sendable ([Int32]) -> Void
    let onAssigned: @Sendable () -> Void
    /// When the last revocation began (uptime ns; 0: none since the last assignment), so the
    /// assignment's log line tells how long the rebalance kept this instance's partitions idle,
    /// and readiness can say a rebalance is under way.
    let rebalanceClock: RebalanceClock

    init(
        workers: [PartitionWorker], metrics: ProcessorMetrics, logger: Logger,
        clock: RebalanceClock, onAssigning: @escaping @Sendable ([Int32]) -> Void,
        onAssigned: @escaping @Sendable () -> Void
    ) {
        self.rebalanceClock = clock
        self.onAssigning = onAssigning
        self.workers = workers
        self.metrics = metrics
        self.logger = logger
        self.onAssigned = onAssigned
    }

    func worker(for partition: Int32) -> PartitionWorker { workers[Int(partition) % workers.count] }

    func assigned(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        metrics.countRebalance()
        metrics.restoring(partitions.count)
        var metadata: Logger.Metadata = [
            "partitions": .array(partitions.map(\.partition).sorted().map { .stringConvertible($0) }),
            "protocol": "\(consumer.rebalanceProtocol)",
        ]
        let revokedAt = rebalanceClock.revokedAtNs.exchange(0, ordering: .relaxed)
        if revokedAt > 0 {
            let rebalanceMs = (DispatchTime.now().uptimeNanoseconds - revokedAt) / 1_000_000
            metadata["rebalance_ms"] = "\(rebalanceMs)"
            metrics.state.recordRebalance(milliseconds: rebalanceMs)
        }
        logger.info("partitions assigned", metadata: metadata)
        onAssigning(partitions.map(\.partition))
        for (worker, owned) in Dictionary(grouping: partitions, by: { worker(for: $0.partition).index }) {
            for partition in owned { consumer.forward(partition, to: workers[worker].queue) }
            workers[worker].post(.assign(owned.map(\.partition)))
        }
        onAssigned()
    }

    func revoked(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        rebalanceClock.revokedAtNs.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        metrics.countRebalance()
        logger.info(
            "partitions revoked",
            metadata: ["partitions": .array(partitions.map(\.partition).sorted().map { .stringConvertible($0) })])
        var waits: [DispatchSemaphore] = []
        for (worker, owned) in Dictionary(grouping: partitions, by: { worker(for: $0.partition).index }) {
            for partition in owned { consumer.stopForwarding(partition) }
            let done = DispatchSemaphore(value: 0)
            workers[worker].post(.revoke(owned.map(\.partition), done: done))
            waits.append(done)
        }
        for done in waits { done.wait() }
    }
}

/// When this instance's partitions were revoked, until the group assigns again (uptime ns; 0:
/// no rebalance under way).
final class RebalanceClock: Sendable {
    let revokedAtNs = Atomic<UInt64>(0)

    /// How long the rebalance under way has lasted, nil when none is.
    var rebalancingMs: UInt64? {
        let revokedAt = revokedAtNs.load(ordering: .relaxed)
        guard revokedAt > 0 else { return nil }
        return (DispatchTime.now().uptimeNanoseconds - revokedAt) / 1_000_000
    }
}

import Dispatch
import Foundation
import Logging
import ZoneKafka

/// Reads the tables as of the event (contract, section 1): before a session's first event
/// looks up its person's profile or its class's plan, the table readers have applied every
/// record that was on `zone-profiles` and `class-plans` when the event's batch was taken,
/// however the topics' consumers are scheduled. So a gateway may publish a session's events
/// as soon as its profile, or a coach's class plan, is acknowledged (not before: records sent
/// back to back to two topics can reach them in either order).
///
/// One per worker, used on its thread only. The first lookup of a batch asks the brokers for
/// the tables' end offsets (one request each, after every record of the batch was fetched) and
/// waits until the readers have applied them, at most `join_wait_ms`; later lookups of the
/// same batch are as of the same moment. Batches without a session start cost nothing.
final class TableJoin {
    private let readers: [TableReader]
    /// The workers' group consumer, whose fetches wait 3 ms at most: the end offsets are asked
    /// through it.
    private let client: KafkaConsumer
    private let metrics: ProcessorMetrics
    private let logger: Logger
    private let waitMs: Int
    /// Whether the current batch's lookups are already as of its taking.
    private var joined = false
    private var timeouts = RepeatedWarning(
        "tables not caught up within join_wait_ms; sessions start with the profiles and plans read so far")

    init(readers: [TableReader], client: KafkaConsumer, waitMs: Int, metrics: ProcessorMetrics, logger: Logger) {
        self.readers = readers
        self.client = client
        self.waitMs = waitMs
        self.metrics = metrics
        self.logger = logger
    }

    /// A new batch is being taken: its first lookup joins again.
    func batchTaken() { joined = false }

    /// Called before a profile is looked up for a starting session.
    func beforeLookup() {
        guard !joined, waitMs > 0 else { return }
        joined = true
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = Date().addingTimeInterval(Double(waitMs) / 1000)
        var ends: [(TableReader, [Int32: Int64])] = []
        for reader in readers {
            guard let end = reader.endOffsets(through: client, timeoutMs: Int32(waitMs)) else {
                return timedOut(since: started)
            }
            ends.append((reader, end))
        }
        func applied() -> Bool { ends.allSatisfy { $0.0.hasApplied(through: $0.1) } }
        if applied() { return }
        while !applied() {
            guard Date() < deadline else { return timedOut(since: started) }
            Thread.sleep(forTimeInterval: 0.001)
        }
        metrics.recordJoinWait(nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
    }

    private func timedOut(since started: UInt64) {
        metrics.recordJoinWait(nanoseconds: DispatchTime.now().uptimeNanoseconds - started, timedOut: true)
        timeouts.log(to: logger, metadata: ["join_wait_ms": .stringConvertible(waitMs)])
    }
}

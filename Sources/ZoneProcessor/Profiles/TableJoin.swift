import Dispatch
import Foundation
import Logging

/// Reads the profile table as of the event (contract, section 1): before a session's first
/// event looks up its person's profile, the profile reader has applied every record that was
/// on `zone-profiles` when the event's batch was taken, however the two topics' consumers are
/// scheduled. So a gateway may publish a profile and the session's events back to back.
///
/// One per worker, used on its thread only. The first lookup of a batch asks the brokers for
/// the table's end offsets (one request, after every record of the batch was fetched) and
/// waits until the reader has applied them, at most `join_wait_ms`; later lookups of the same
/// batch are as of the same moment. Batches without a session start cost nothing.
final class TableJoin {
    private let reader: ProfileReader
    private let metrics: ProcessorMetrics
    private let logger: Logger
    private let waitMs: Int
    /// Whether the current batch's lookups are already as of its taking.
    private var joined = false
    private var timeouts = RepeatedWarning(
        "profile table not caught up within join_wait_ms; sessions start with the profiles read so far")

    init(reader: ProfileReader, waitMs: Int, metrics: ProcessorMetrics, logger: Logger) {
        self.reader = reader
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
        guard let ends = reader.endOffsets(timeoutMs: Int32(waitMs)) else {
            return timedOut(since: started)
        }
        if reader.hasApplied(through: ends) { return }
        while !reader.hasApplied(through: ends) {
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

import Dispatch
import Logging

/// Reads the tables as of the event (contract, section 1) for one worker: before a session's
/// first event looks up its person's profile or its class's plan, the table readers have
/// applied every record that was on `zone-profiles` and `class-plans` when the event reached
/// `workout-events`, however the topics' consumers are scheduled. So a gateway may publish a
/// session's events as soon as its profile, or a coach's class plan, is acknowledged (not
/// before: records sent back to back to two topics can reach them in either order).
///
/// The worker never asks the brokers: it reads ``TableCoverage``, which the process's
/// ``TableProber`` advances. A session start that is not covered yet is held with the rest of
/// its session's records (``ParkedSessions``) while the worker's other sessions go on, for at
/// most `join_wait_ms`; while the tables' end offsets have been late for longer than that,
/// session starts do not wait at all, so a slow broker costs one wait until it answers again.
/// Used on its worker's thread only.
struct TableJoin {
    let coverage: TableCoverage
    /// `join_wait_ms`; 0: sessions start with what the readers have read, nothing is held.
    let waitMs: Int
    private let metrics: ProcessorMetrics
    private let logger: Logger
    /// What the worker holds over all its partitions, in bytes (``ParkedSessions/Record/bytes``).
    private(set) var heldBytes = 0
    private var timeouts = RepeatedWarning(
        "tables not caught up within join_wait_ms; sessions start with the profiles and plans read so far")

    /// Past this many bytes held, the worker waits until the oldest holds end (at most
    /// `join_wait_ms`) rather than hold more: a bound on memory while the tables are slow.
    static let maxHeldBytes = 16 << 20

    init(coverage: TableCoverage, waitMs: Int, metrics: ProcessorMetrics, logger: Logger) {
        self.coverage = coverage
        self.waitMs = waitMs
        self.metrics = metrics
        self.logger = logger
    }

    /// Whether the record at `offset` of `state`'s partition, whose session start reads the
    /// tables, must be held: not covered, and the tables' end offsets not late already.
    /// Refreshes the partition's copy of its coverage.
    func mustHold(offset: Int64, partition: Int32, state: inout PartitionState) -> Bool {
        guard waitMs > 0 else {
            state.coveredBelow = .max
            return false
        }
        state.coveredBelow = coverage.coveredBelow(partition)
        guard offset >= state.coveredBelow else { return false }
        guard !coverage.isStalled(waitMs: waitMs) else {
            metrics.countUnwaitedJoin()
            return false
        }
        return true
    }

    /// Holds `record`, its session's first, and asks the prober to cover it.
    mutating func hold(first record: ParkedSessions.Record, partition: Int32, state: inout PartitionState) {
        state.parked.hold(first: record, nowNs: DispatchTime.now().uptimeNanoseconds)
        heldBytes += record.bytes
        coverage.demand(partition: partition, below: record.offset + 1)
    }

    /// Holds a later record of a session held already.
    mutating func hold(later record: ParkedSessions.Record, state: inout PartitionState) {
        state.parked.append(record)
        heldBytes += record.bytes
    }

    /// Takes the records of `partition` whose sessions may go now: covered, or held for
    /// `join_wait_ms`, or while the tables' end offsets are late. Records the waits.
    mutating func release(partition: Int32, state: inout PartitionState, nowNs: UInt64) -> [ParkedSessions.Record] {
        let covered = coverage.coveredBelow(partition)
        state.coveredBelow = covered
        let stalled = coverage.isStalled(waitMs: waitMs, nowNs: nowNs)
        let limitNs = UInt64(waitMs) * 1_000_000
        let before = state.parked.bytes
        let (records, waits) = state.parked.release { wait in
            covered >= wait.coveredBelow || stalled || TableCoverage.elapsed(since: wait.sinceNs, at: nowNs) >= limitNs
        }
        heldBytes -= before - state.parked.bytes
        for wait in waits {
            let timedOut = covered < wait.coveredBelow
            metrics.recordJoinWait(
                nanoseconds: TableCoverage.elapsed(since: wait.sinceNs, at: nowNs), timedOut: timedOut)
            guard timedOut else { continue }
            timeouts.log(
                to: logger,
                metadata: [
                    "join_wait_ms": .stringConvertible(waitMs), "partition": .stringConvertible(partition),
                    "offset": .stringConvertible(wait.firstOffset), "covered_below": .stringConvertible(covered),
                    "waiting_for": .string(coverage.awaited),
                ])
        }
        return records
    }

    /// Forgets what a revoked partition held: its new owner reads it again from below it.
    mutating func dropped(_ state: PartitionState) { heldBytes -= state.parked.bytes }
}

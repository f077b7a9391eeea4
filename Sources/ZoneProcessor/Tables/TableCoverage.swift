import Dispatch
import Synchronization

/// Which records of `workout-events` the tables are read as of (contract, section 1), shared by
/// the workers and the ``TableProber`` that advances it.
///
/// Per input partition it holds an offset below which every record is covered: every record
/// that reached `zone-profiles` or `class-plans` before such a record reached `workout-events`
/// has been applied by the table readers. A fact about offsets stays true, so the offsets only
/// grow and survive reassignments. A worker reads it (a lock, taken only for a session start
/// its own copy does not cover) and, for a record not covered yet, asks for it
/// (``demand(partition:below:)``); it never sends a request itself.
final class TableCoverage: Sendable {
    private let covered = Mutex<[Int32: Int64]>([:])
    private let demands = Mutex<[Int32: Int64]>([:])
    /// Woken by a demand, so a probe starts at once rather than at its next interval.
    let wake = DispatchSemaphore(value: 0)
    /// Since when the brokers have not answered the prober's end-offsets request (uptime ns),
    /// through its retries; 0 once they answer.
    private let unansweredSinceNs = Atomic<UInt64>(0)

    init() {}

    /// The offset below which every record of `partition` is covered (0: none known yet).
    func coveredBelow(_ partition: Int32) -> Int64 { covered.withLock { $0[partition] ?? 0 } }

    /// Asks for the records of `partition` below `offset` to be covered.
    func demand(partition: Int32, below offset: Int64) {
        let fresh = demands.withLock { demands in
            guard (demands[partition] ?? 0) < offset else { return false }
            demands[partition] = offset
            return true
        }
        if fresh { wake.signal() }
    }

    /// Whether the brokers have not answered the tables' end offsets for longer than `waitMs`:
    /// a session start then does not wait at all, so a slow broker costs one wait until it
    /// answers again rather than one per session. Once it answers, starts wait again (for the
    /// readers to apply what it answered). `nowNs` may be older than a request the prober sent
    /// meanwhile: that request has not been late for any time.
    func isStalled(waitMs: Int, nowNs: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        let since = unansweredSinceNs.load(ordering: .acquiring)
        return since != 0 && Self.elapsed(since: since, at: nowNs) > UInt64(waitMs) &* 1_000_000
    }

    /// The time from `sinceNs` to `nowNs`; none when `nowNs` was read before another thread
    /// read `sinceNs`.
    static func elapsed(since sinceNs: UInt64, at nowNs: UInt64) -> UInt64 { nowNs > sinceNs ? nowNs - sinceNs : 0 }

    /// What a start that is not covered yet waits for, for the warning when its wait runs out:
    /// the brokers' answer to the end-offsets request, or the table readers applying it.
    var awaited: String {
        let answered = unansweredSinceNs.load(ordering: .acquiring) == 0
        return answered ? "the table readers" : "the tables' end offsets from the brokers"
    }

    // MARK: The prober's side

    func takeDemands() -> [Int32: Int64] {
        demands.withLock { demands in
            defer { demands.removeAll(keepingCapacity: true) }
            return demands
        }
    }

    /// Puts back demands a round could not serve (the brokers did not answer).
    func restore(demands lost: [Int32: Int64]) {
        demands.withLock { $0.merge(lost) { max($0, $1) } }
    }

    /// Whether every candidate is covered already (nothing for a round to do).
    func covers(_ candidates: [Int32: Int64]) -> Bool {
        covered.withLock { covered in candidates.allSatisfy { $0.value <= (covered[$0.key] ?? 0) } }
    }

    /// An end-offsets request is sent: the brokers owe an answer from now, unless they owed one
    /// already (a retry keeps the first time).
    func requestSent(atNs now: UInt64) {
        _ = unansweredSinceNs.compareExchange(expected: 0, desired: max(now, 1), ordering: .acquiringAndReleasing)
    }

    /// The brokers answered.
    func answered() { unansweredSinceNs.store(0, ordering: .releasing) }

    /// Records that every record below `candidates` is covered.
    func publish(_ candidates: [Int32: Int64]) {
        covered.withLock { $0.merge(candidates) { max($0, $1) } }
    }
}

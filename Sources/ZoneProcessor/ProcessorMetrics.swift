public import Synchronization
public import ZoneEngine

/// Counters shared by the workers, read by the command line and (later) the metrics endpoint.
/// Atomics only: nothing here is on a lock.
public final class ProcessorMetrics: Sendable {
    public let recordsIn = Atomic<Int>(0)
    public let samplesIn = Atomic<Int>(0)
    public let zoneChanges = Atomic<Int>(0)
    public let workoutsFinished = Atomic<Int>(0)
    public let deadLetters = Atomic<Int>(0)
    public let commits = Atomic<Int>(0)
    public let rebalances = Atomic<Int>(0)
    public let liveSessions = Atomic<Int>(0)
    /// Changelog records written (session states, tombstones, retention markers).
    public let changelogRecords = Atomic<Int>(0)
    /// Sessions restored from the changelog, and the time restores took in all.
    public let sessionsRestored = Atomic<Int>(0)
    public let restoreMicroseconds = Atomic<Int>(0)
    /// Per reason; dead letters are rare, so a lock is fine here.
    private let deadLettersByReason = Mutex<[DeadLetterReason: Int]>([:])

    public init() {}

    func countDeadLetter(_ reason: DeadLetterReason) {
        deadLetters.add(1, ordering: .relaxed)
        deadLettersByReason.withLock { $0[reason, default: 0] += 1 }
    }

    /// Dead letters so far for one reason.
    public func deadLetters(_ reason: DeadLetterReason) -> Int { deadLettersByReason.withLock { $0[reason] ?? 0 } }
}

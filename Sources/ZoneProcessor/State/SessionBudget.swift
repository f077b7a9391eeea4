import Synchronization

/// The instance-wide cap on live sessions (`max_live_sessions`), shared by the workers, so a
/// flood of new session ids cannot exhaust memory. Touched only when a session starts or ends.
final class SessionBudget: Sendable {
    let limit: Int
    private let live = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    var liveCount: Int { live.load(ordering: .relaxed) }

    /// Counts one more live session if the cap allows it.
    func tryAdmit() -> Bool {
        var current = live.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = live.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Sessions restored from the changelog are counted even over the cap: they are not new.
    func add(_ count: Int) { live.add(count, ordering: .relaxed) }

    func release(_ count: Int) { live.subtract(count, ordering: .relaxed) }
}

import Synchronization
import ZoneEngine

/// The instance-wide caps on live sessions, shared by the workers, so a flood of new session
/// ids, or of sessions with long plans of their own, cannot exhaust memory: a count
/// (`max_live_sessions`) and their estimated memory in bytes (`max_session_memory_mb`).
/// Touched only when a session starts or ends.
final class SessionBudget: Sendable {
    let limit: Int
    let byteLimit: Int
    private let live = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)

    init(limit: Int, byteLimit: Int = Int.max) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    var liveCount: Int { live.load(ordering: .relaxed) }

    /// The estimated memory of the live sessions.
    var liveBytes: Int { bytes.load(ordering: .relaxed) }

    /// A live session's memory as the cap counts it: a session without a plan (1.4 KB with live
    /// views on, docs/how-to/size.md), its time in target at worst (three 32-bit counts per step
    /// and quantity), and for a plan of its own the steps themselves, as if no other session
    /// shared them. A bound to refuse at, not a measurement: sessions of one plan share it.
    static func estimatedBytes(plan: WorkoutPlan?) -> Int {
        guard let plan else { return sessionBytes }
        let counts = plan.steps.count * 2 * 3 * MemoryLayout<Int32>.stride
        let steps =
            plan.source == .session
            ? plan.steps.count * (MemoryLayout<PlanStep>.stride + MemoryLayout<Int64>.stride) : 0
        return sessionBytes + counts + steps
    }

    static let sessionBytes = 1400

    /// Counts one more live session, with a plan or without, if both caps allow it.
    func tryAdmit(plan: WorkoutPlan?) -> Bool {
        let size = Self.estimatedBytes(plan: plan)
        guard reserve(size, in: bytes, limit: byteLimit) else { return false }
        guard reserve(1, in: live, limit: limit) else {
            bytes.subtract(size, ordering: .relaxed)
            return false
        }
        return true
    }

    private func reserve(_ amount: Int, in total: borrowing Atomic<Int>, limit: Int) -> Bool {
        var current = total.load(ordering: .relaxed)
        while current <= limit - amount {
            let (exchanged, original) = total.compareExchange(
                expected: current, desired: current + amount, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Sessions restored from the changelog are counted even over the caps: they are not new.
    func add(_ sessions: some Sequence<WorkoutSession>) {
        for session in sessions { add(plan: session.plan) }
    }

    func add(plan: WorkoutPlan?) {
        live.add(1, ordering: .relaxed)
        bytes.add(Self.estimatedBytes(plan: plan), ordering: .relaxed)
    }

    /// A session that ended, or moved away, with the plan it followed.
    func release(plan: WorkoutPlan?) {
        live.subtract(1, ordering: .relaxed)
        bytes.subtract(Self.estimatedBytes(plan: plan), ordering: .relaxed)
    }

    func release(_ sessions: some Sequence<WorkoutSession>) {
        for session in sessions { release(plan: session.plan) }
    }
}

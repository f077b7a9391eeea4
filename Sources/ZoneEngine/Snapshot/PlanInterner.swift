/// Lets the sessions read back from snapshots share one instance of each plan. The sessions of
/// a class follow the same plan, and a reader that holds many sessions (warm standbys, the
/// group-wide table, a restore) would otherwise hold a copy of it per session.
///
/// Used by one thread. Bounded by the plans its sessions still hold: each time it has doubled
/// since, it lets go of the plans that only it holds.
public final class PlanInterner {
    private var plans: [Content: WorkoutPlan] = [:]
    private var sweepAt = 64

    public init() {}

    /// The instance already read with the same content, else `plan` (kept for later reads).
    public func interned(_ plan: WorkoutPlan) -> WorkoutPlan {
        let content = Content(plan)
        if let known = plans[content] { return known }
        if plans.count >= sweepAt { sweep() }
        plans[content] = plan
        return plan
    }

    /// How many plans it holds.
    public var count: Int { plans.count }

    private func sweep() {
        for content in Array(plans.keys) where isKnownUniquelyReferenced(&plans[content]!) {
            plans[content] = nil
        }
        sweepAt = max(64, plans.count * 2)
    }

    /// A plan's content, without a reference to the plan itself (which would keep every plan
    /// from ever being held only here).
    private struct Content: Hashable {
        let name: String?
        let source: WorkoutPlan.Source
        let anchor: Int64
        let steps: [PlanStep]

        init(_ plan: WorkoutPlan) {
            name = plan.name
            source = plan.source
            anchor = plan.anchor
            steps = plan.steps
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(source)
            hasher.combine(anchor)
            hasher.combine(steps.count)
            for step in steps { hasher.combine(step.durationMs) }
        }
    }
}

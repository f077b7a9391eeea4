/// Lets sessions share one copy of each plan's steps. The sessions of a class follow the same
/// plan, and members who send a plan of their own mostly send the same one, anchored at their
/// own start: a worker, or a reader that holds many sessions (warm standbys, the group-wide
/// table, a restore), would otherwise hold a copy of the steps per session.
///
/// Used by one thread. Bounded by the plans its sessions still hold: each time it has doubled
/// since, it lets go of the plans that only it holds.
public final class PlanInterner {
    private var plans: [Steps: WorkoutPlan] = [:]
    private var sweepAt = 64
    /// Class names seen, so a class's sessions share one copy of the name.
    private var classNames: Set<String> = []
    /// The most class names held; past it they are let go (sharing saves memory, it is no rule).
    static let classNamesLimit = 4096

    public init() {}

    /// The instance already seen that equals `plan`; else `plan` holding the storage of the
    /// steps of one already seen, when one has the same steps; else `plan` (kept for later).
    public func interned(_ plan: WorkoutPlan) -> WorkoutPlan {
        let steps = Steps(plan.steps)
        if let known = plans[steps] {
            if known == plan { return known }
            return known.sharesSteps(with: plan) ? plan : plan.sharingSteps(of: known)
        }
        if plans.count >= sweepAt { sweep() }
        plans[steps] = plan
        return plan
    }

    /// The copy of `name` already seen, else `name` (kept for later): a class's members share one
    /// copy of its name rather than each holding the one their record decoded.
    public func interned(className name: String) -> String {
        if let index = classNames.firstIndex(of: name) { return classNames[index] }
        if classNames.count >= Self.classNamesLimit { classNames.removeAll(keepingCapacity: true) }
        classNames.insert(name)
        return name
    }

    /// How many plans it holds.
    public var count: Int { plans.count }

    private func sweep() {
        for steps in Array(plans.keys) where isKnownUniquelyReferenced(&plans[steps]!) {
            plans[steps] = nil
        }
        sweepAt = max(64, plans.count * 2)
    }

    /// A plan's steps, the key: hashed by their count and durations.
    private struct Steps: Hashable {
        let steps: [PlanStep]

        init(_ steps: [PlanStep]) { self.steps = steps }

        func hash(into hasher: inout Hasher) {
            hasher.combine(steps.count)
            for step in steps { hasher.combine(step.durationMs) }
        }
    }
}

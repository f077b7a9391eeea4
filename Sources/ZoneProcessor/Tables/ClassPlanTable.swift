import NIOConcurrencyHelpers
public import ZoneEngine

/// The `class-plans` topic as a table, read whole by every instance like the profiles: each
/// class's plan, anchored at its start. Read by workers only when a session with a class
/// starts. Bounded: past `limit` classes a new class's plan is refused (counted and logged).
public final class ClassPlanTable: Sendable {
    private let plans = NIOLockedValueBox<[String: WorkoutPlan]>([:])
    /// The most classes held (`max_class_plans`).
    public let limit: Int

    public init(limit: Int = ProcessorConfiguration.defaults.maxClassPlans) {
        self.limit = limit
    }

    public func plan(for sessionClass: String) -> WorkoutPlan? { plans.withLockedValue { $0[sessionClass] } }

    /// Takes the plan; false when it is a new class and the table is full.
    @discardableResult
    func upsert(_ plan: WorkoutPlan, for sessionClass: String) -> Bool {
        plans.withLockedValue { table in
            guard table[sessionClass] != nil || table.count < limit else { return false }
            table[sessionClass] = plan
            return true
        }
    }

    func delete(_ sessionClass: String) { _ = plans.withLockedValue { $0.removeValue(forKey: sessionClass) } }

    public var count: Int { plans.withLockedValue { $0.count } }
}

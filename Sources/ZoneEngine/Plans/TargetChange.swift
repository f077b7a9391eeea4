/// A session's target state for a quantity changed (contract, `target-changes`).
public struct TargetChange: Sendable, Equatable {
    /// A step (0-based) and where the quantity stood against its target.
    public struct State: Sendable, Equatable {
        public let step: Int
        public let status: TargetStatus
    }

    public let quantity: Quantity
    /// The sample's time and value (canonical unit).
    public let timestamp: Int64
    public let value: Double
    public let state: State
    /// The last published state for the quantity; nil for the first.
    public let previous: State?
    /// The session's plan, for the step's purpose, times and target.
    public let plan: WorkoutPlan

    public static func == (lhs: TargetChange, rhs: TargetChange) -> Bool {
        lhs.quantity == rhs.quantity && lhs.timestamp == rhs.timestamp && lhs.value == rhs.value
            && lhs.state == rhs.state && lhs.previous == rhs.previous && lhs.plan === rhs.plan
    }
}

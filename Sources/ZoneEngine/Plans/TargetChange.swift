/// A session's target state for a quantity changed (contract, `target-changes`).
///
/// The step's purpose, bounds and target are copied out of the plan rather than the plan held:
/// a change is then plain values, so producing, reading and dropping one retains nothing.
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
    /// The state's step: its purpose, when it starts and ends, and its target for the quantity.
    public let purpose: PlanStep.Purpose
    public let stepStart: Int64
    public let stepEnd: Int64
    public let target: PlanTarget?
}

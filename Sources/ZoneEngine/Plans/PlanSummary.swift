/// A finished workout's `plan` (contract, section 4): every step of the plan with the time in,
/// below and above each of its targets, and each targeted quantity's compliance.
public struct PlanSummary: Sendable, Equatable {
    public let plan: WorkoutPlan
    /// Per quantity, milliseconds per step and status (index step * 3 + status); empty for a
    /// quantity no step targets.
    let counts: PerQuantity<[Int64]>

    init(plan: WorkoutPlan, heartRate: QuantityTrack, cyclingPower: QuantityTrack) {
        self.plan = plan
        func counts(_ track: QuantityTrack) -> [Int64] {
            track.target?.settledCounts(covered: track.coveredMs) ?? []
        }
        self.counts = PerQuantity(heartRate: counts(heartRate), cyclingPower: counts(cyclingPower))
    }

    /// Milliseconds of `step` (0-based) in which `quantity` stood at `status` against its target.
    public func milliseconds(step: Int, _ quantity: Quantity, _ status: TargetStatus) -> Int64 {
        let counts = self.counts[quantity]
        return counts.isEmpty ? 0 : counts[step * 3 + Int(status.rawValue)]
    }

    /// The quantities some step targets, in quantity order.
    public var targetedQuantities: [Quantity] {
        Quantity.allCases.filter { quantity in plan.steps.contains { $0.targets[quantity] != nil } }
    }

    /// Time in target over time counted against a target for `quantity`, summed over the steps
    /// (its compliance before rounding); nil when nothing was counted.
    public func complianceFraction(_ quantity: Quantity) -> (inMs: Int64, countedMs: Int64)? {
        let counts = self.counts[quantity]
        guard !counts.isEmpty else { return nil }
        var inside: Int64 = 0
        var counted: Int64 = 0
        for (index, milliseconds) in counts.enumerated() {
            counted += milliseconds
            if index % 3 == Int(TargetStatus.in.rawValue) { inside += milliseconds }
        }
        return counted > 0 ? (inside, counted) : nil
    }

    /// `numerator / denominator` in hundredths, halves away from zero (both >= 0, denominator > 0).
    public static func hundredths(_ numerator: Int64, over denominator: Int64) -> Int64 {
        let rounded = (200 * Int128(numerator) + Int128(denominator)) / (2 * Int128(denominator))
        return Int64(clamping: rounded)
    }
}

/// A coach's plan for a session (contract, "Plans and targets"): timed steps in order, each
/// with an optional target per quantity, anchored at a time. Flattened (repeat blocks
/// unrolled) and immutable, so every session of a class shares one instance; plans of the same
/// steps at other anchors (each member's own copy of a plan, anchored at their start) share
/// the steps' storage (``sharingSteps(of:)``).
public final class WorkoutPlan: Sendable {
    /// Where a session's plan came from.
    public enum Source: String, Sendable {
        /// Its own `session_start`, anchored at the session's start.
        case session
        /// Its class's record on `class-plans`, anchored at the class's `start_ts`.
        case `class`
    }

    public let name: String?
    public let source: Source
    /// When step 1 starts.
    public let anchor: Int64
    public let steps: [PlanStep]
    /// Step i covers [anchor + offsets[i], anchor + offsets[i + 1]); the last entry is the
    /// plan's length. Relative to the anchor, so plans of the same steps share it.
    let offsets: [Int64]

    public convenience init(name: String?, source: Source, anchor: Int64, steps: [PlanStep]) {
        var offsets: [Int64] = [0]
        offsets.reserveCapacity(steps.count + 1)
        for step in steps { offsets.append(offsets[offsets.count - 1] + step.durationMs) }
        self.init(name: name, source: source, anchor: anchor, steps: steps, offsets: offsets)
    }

    private init(name: String?, source: Source, anchor: Int64, steps: [PlanStep], offsets: [Int64]) {
        self.name = name
        self.source = source
        self.anchor = anchor
        self.steps = steps
        self.offsets = offsets
    }

    /// The same steps from another source and anchor (a class plan as a session uses it).
    public func anchored(at anchor: Int64, source: Source) -> WorkoutPlan {
        WorkoutPlan(name: name, source: source, anchor: anchor, steps: steps, offsets: offsets)
    }

    /// This plan holding `other`'s storage of the steps, which must be equal to its own: one
    /// copy of a plan's steps for all the sessions that follow it, whatever their anchors.
    func sharingSteps(of other: WorkoutPlan) -> WorkoutPlan {
        WorkoutPlan(name: name, source: source, anchor: anchor, steps: other.steps, offsets: other.offsets)
    }

    /// Whether this plan holds the same storage of its steps as `other`.
    public func sharesSteps(with other: WorkoutPlan) -> Bool {
        steps.withUnsafeBufferPointer { mine in
            other.steps.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }

    /// When the last step ends.
    public var end: Int64 { anchor + offsets[offsets.count - 1] }

    public func start(ofStep index: Int) -> Int64 { anchor + offsets[index] }

    /// The step (0-based) that holds `timestamp`; nil before the anchor or after the end.
    public func step(at timestamp: Int64) -> Int? {
        guard timestamp >= anchor, timestamp < end else { return nil }
        let offset = timestamp - anchor
        var low = 0
        var high = steps.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if offsets[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }
    public func end(ofStep index: Int) -> Int64 { anchor + offsets[index + 1] }

    /// The most steps a plan has once flattened (contract, section 3).
    public static let maximumSteps = 200
    /// How long a step lasts, in milliseconds: a second to a day (contract, section 3).
    public static let stepDurationRange: ClosedRange<Int64> = 1000...86_400_000
}

extension WorkoutPlan: Equatable {
    /// Equal when they ask the same of the same times (two readings of one record are equal).
    public static func == (lhs: WorkoutPlan, rhs: WorkoutPlan) -> Bool {
        lhs === rhs
            || (lhs.name == rhs.name && lhs.source == rhs.source && lhs.anchor == rhs.anchor && lhs.steps == rhs.steps)
    }
}

/// One step of a plan.
public struct PlanStep: Sendable, Equatable {
    public enum Purpose: String, Sendable, CaseIterable {
        case warmup, work, recovery, cooldown, other
    }

    public var purpose: Purpose
    public var durationMs: Int64
    /// The target per quantity; nil where the step has none.
    public var targets: PerQuantity<PlanTarget?>

    public init(purpose: Purpose, durationMs: Int64, targets: PerQuantity<PlanTarget?>) {
        self.purpose = purpose
        self.durationMs = durationMs
        self.targets = targets
    }
}

/// What a step asks of one quantity.
public enum PlanTarget: Sendable, Equatable {
    /// Zones `low` through `high` of the session's configuration, 1-based and inclusive, as
    /// sent (a number above the last zone means the last zone).
    case zones(low: Int, high: Int)
    /// `minimum` <= v < `maximum`, in the quantity's canonical unit; either side may be open.
    case values(minimum: Double?, maximum: Double?)

    /// Whether `value` (in zone `zone`, 0-based, or -1 without zones) is in, below or above
    /// the target; nil for a zone target when the session has no zones for the quantity.
    /// The contract's rule as it reads; a sample's path compares the value with the
    /// ``TargetBounds`` this gives for its step.
    func status(of value: Double, zone: Int, zoneCount: Int) -> TargetStatus? {
        switch self {
        case .zones(let low, let high):
            guard zone >= 0 else { return nil }
            let number = zone + 1
            if number < min(low, zoneCount) { return .below }
            if number > min(high, zoneCount) { return .above }
            return .in
        case .values(let minimum, let maximum):
            if let minimum, value < minimum { return .below }
            if let maximum, value >= maximum { return .above }
            return .in
        }
    }
}

/// Where a value stands against a target.
public enum TargetStatus: Int8, Sendable, CaseIterable {
    case `in` = 0
    case below = 1
    case above = 2

    public var name: String {
        switch self {
        case .in: "in"
        case .below: "below"
        case .above: "above"
        }
    }
}

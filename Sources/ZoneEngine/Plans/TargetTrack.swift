/// One quantity's progress against its session's plan: time in target per step (in, below,
/// above), and the live target state (step, status) with its dwell. Kept in the quantity's
/// track, nil when the session has no plan or the plan never targets the quantity, so a
/// session without a plan pays one nil check per credited interval and per sample.
///
/// What every sample reads or writes is stored inline, in the session's own memory: the step
/// the latest sample fell in (its bounds and target copied out of the plan), the running
/// step's milliseconds and the target state. The plan's step bounds and targets and the
/// milliseconds of every other step are in one heap object (``Steps``), shared by copies of
/// the track and copied on write, read only when a sample or interval moves to another step:
/// with a thousand sessions each heap object is a cache miss, once per step rather than once
/// per sample.
struct TargetTrack: Sendable {
    /// The plan's steps for this quantity and the milliseconds settled per step and status.
    final class Steps: @unchecked Sendable {
        // @unchecked: `counts` is written only through TargetTrack's mutating methods, each of
        // which first copies this object unless its track holds the only reference (copy on
        // write); everything else is immutable.
        let plan: WorkoutPlan
        let quantity: Quantity
        /// The plan's step bounds and this quantity's target per step, copied out of the plan
        /// once, for the steps a sample moves into.
        let starts: [Int64]
        let targets: [PlanTarget?]
        /// Milliseconds per step and status: index step * 3 + status, except what is still
        /// running for the track's running step. 32 bits: a step lasts at most a day (the
        /// contract's bound, 86,400,000 ms), and each session following a plan holds these,
        /// so they are half its plan's memory of 64-bit counts.
        @exclusivity(unchecked) var counts: [Int32]

        init(plan: WorkoutPlan, quantity: Quantity) {
            self.plan = plan
            self.quantity = quantity
            starts = plan.starts
            targets = plan.targetsByQuantity[quantity]
            counts = Array(repeating: 0, count: plan.steps.count * 3)
        }

        func copy() -> Steps {
            let copy = Steps(plan: plan, quantity: quantity)
            copy.counts = counts
            return copy
        }
    }

    /// Read by the snapshot extension (TargetTrack+Snapshot.swift); written only through the
    /// mutating methods here, which copy it first when it is shared.
    var steps: Steps
    /// The running step's milliseconds (in, below, above), kept here until the crediting moves
    /// on to another step.
    var runningIn: Int64 = 0
    var runningBelow: Int64 = 0
    var runningAbove: Int64 = 0
    /// The step the latest sample fell in, with its bounds and target copied out of the plan
    /// (or the span before or after the plan, without a target): an interval or sample inside
    /// [cachedStart, cachedEnd) needs nothing else. Empty (0, 0) until the first sample.
    var cachedStart: Int64 = 0
    var cachedEnd: Int64 = 0
    var candidateSince: Int64 = 0
    var cachedTarget: PlanTarget?
    // Step indices are 16 bits: a plan has at most `WorkoutPlan.maximumSteps` steps.
    var cachedStep: Int16 = -1
    /// The step whose milliseconds are running, -1: none.
    var runningStep: Int16 = -1
    /// The state the latest samples have had since `candidateSince`, step -1 before any.
    var candidateStep: Int16 = -1
    /// The last published state, step -1 before the first.
    var publishedStep: Int16 = -1
    /// The state published before it, for the change's `previous`; step -1: none.
    var previousStep: Int16 = -1
    /// The first step that may overlap the next credited interval (intervals come in time order).
    var creditCursor: Int16 = 0
    /// The first step that may hold the next accepted sample (samples come in time order).
    var stateCursor: Int16 = 0
    var candidateStatus = TargetStatus.in
    var publishedStatus = TargetStatus.in
    var previousStatus = TargetStatus.in
    /// Whether the latest accepted sample fell in the cached step and had a status there: the
    /// candidate's. Its coverage, credited when the next sample comes, then has that status
    /// without working it out again (the zones it was worked out with cannot change once the
    /// track has samples). False until the first such sample and after a restore.
    var latestStatusKnown = false

    /// The track of `quantity` under `plan`; nil when no step targets the quantity.
    /// Also nil for a plan of more than ``WorkoutPlan/maximumSteps`` steps, which no input
    /// gives (the decoder and the snapshot reader refuse one): step indices are 16 bits.
    init?(plan: WorkoutPlan, quantity: Quantity) {
        guard Self.tracks(quantity, of: plan) else { return nil }
        steps = Steps(plan: plan, quantity: quantity)
    }

    /// Whether a session under `plan` keeps a track of `quantity`'s target (what makes
    /// ``init(plan:quantity:)`` nil or not, without making the track).
    static func tracks(_ quantity: Quantity, of plan: WorkoutPlan) -> Bool {
        plan.steps.count <= WorkoutPlan.maximumSteps && plan.steps.contains { $0.targets[quantity] != nil }
    }

    /// A track with `steps` and its state at their defaults, for the snapshot to fill in.
    init(steps: Steps) { self.steps = steps }

    var plan: WorkoutPlan { steps.plan }

    /// The last published state, nil before the first.
    var publishedState: TargetChange.State? {
        publishedStep < 0 ? nil : TargetChange.State(step: Int(publishedStep), status: publishedStatus)
    }

    /// Milliseconds of `step` (0-based) with `status`.
    func milliseconds(step: Int, _ status: TargetStatus) -> Int64 {
        var milliseconds = Int64(steps.counts[step * 3 + Int(status.rawValue)])
        if step == Int(runningStep) {
            switch status {
            case .in: milliseconds += runningIn
            case .below: milliseconds += runningBelow
            case .above: milliseconds += runningAbove
            }
        }
        return milliseconds
    }

    /// The settled counts with what is running added.
    var settledCounts: [Int64] {
        var settled = steps.counts.map(Int64.init)
        guard runningStep >= 0 else { return settled }
        let base = Int(runningStep) * 3
        settled[base] += runningIn
        settled[base + 1] += runningBelow
        settled[base + 2] += runningAbove
        return settled
    }

    /// Credits `milliseconds` of `step` at `status`, in the running sums when it is their step.
    @inline(__always)
    private mutating func add(_ milliseconds: Int64, step: Int16, status: TargetStatus) {
        if step != runningStep { settleRunning(startingStep: step) }
        switch status {
        case .in: runningIn += milliseconds
        case .below: runningBelow += milliseconds
        case .above: runningAbove += milliseconds
        }
    }

    /// Moves the running sums into the counts and starts running `step`.
    @inline(never)
    private mutating func settleRunning(startingStep step: Int16) {
        if runningStep >= 0 {
            if !isKnownUniquelyReferenced(&steps) { steps = steps.copy() }
            let base = Int(runningStep) * 3
            // Within a step's day at most; clamped all the same, so no count can trap.
            func settle(_ index: Int, _ running: Int64) {
                steps.counts[index] = Int32(clamping: Int64(steps.counts[index]) &+ running)
            }
            settle(base, runningIn)
            settle(base + 1, runningBelow)
            settle(base + 2, runningAbove)
        }
        runningStep = step
        (runningIn, runningBelow, runningAbove) = (0, 0, 0)
    }

    /// Credits the covered interval [from, to) of a value (in zone `zone`, 0-based, -1 without
    /// zones) to each step it overlaps that has a target for the quantity, split at step bounds.
    @inline(__always)
    mutating func credit(value: Double, zone: Int, zoneCount: Int, from: Int64, to: Int64) {
        if from >= cachedStart && to <= cachedEnd {
            // Within the latest sample's step: the usual case, one step and its cached target.
            // The credit cursor is left behind: the next interval across a bound moves it on.
            if latestStatusKnown {
                add(to &- from, step: cachedStep, status: candidateStatus)
                return
            }
            if let target = cachedTarget, let status = target.status(of: value, zone: zone, zoneCount: zoneCount) {
                add(to - from, step: cachedStep, status: status)
            }
            return
        }
        creditAcrossSteps(value: value, zone: zone, zoneCount: zoneCount, from: from, to: to)
    }

    @inline(never)
    private mutating func creditAcrossSteps(value: Double, zone: Int, zoneCount: Int, from: Int64, to: Int64) {
        let steps = self.steps
        let count = steps.targets.count
        var index = Int(creditCursor)
        while index < count && steps.starts[index + 1] <= from { index += 1 }
        creditCursor = Int16(index)
        while index < count && steps.starts[index] < to {
            let overlap = min(to, steps.starts[index + 1]) - max(from, steps.starts[index])
            if overlap > 0, let target = steps.targets[index],
                let status = target.status(of: value, zone: zone, zoneCount: zoneCount)
            {
                add(overlap, step: Int16(index), status: status)
            }
            index += 1
        }
    }
}

/// One quantity's progress against its session's plan: time in target per step (in, below,
/// above), and the live target state (step, status) with its dwell. Kept in the quantity's
/// track, nil when the session has no plan or the plan never targets the quantity, so a
/// session without a plan pays one nil check per credited interval and per sample.
///
/// Time in target is counted in runs: while samples keep one step and status, the time they
/// cover is the track's covered time (``QuantityTrack/coveredMs``) since the run began, so a
/// sample that keeps its state costs a comparison, not a sum. A run is settled into the step's
/// counts when the state changes, and a covered interval that leaves the run's step is
/// credited step by step.
///
/// What every sample reads or writes is stored inline, in the session's own memory, first: the
/// step the latest sample fell in (its end and target copied out of the plan) and the target
/// state. The milliseconds of every step but the running one are in one heap object
/// (``Steps``, with the plan), shared by copies of the track and copied on write, read only
/// when a sample or interval moves to another step: with a thousand sessions each heap object
/// is a cache miss, once per step rather than once per sample.
struct TargetTrack: Sendable {
    /// The plan's steps for this quantity and the milliseconds settled per step and status.
    final class Steps: @unchecked Sendable {
        // @unchecked: `counts` is written only through TargetTrack's mutating methods, each of
        // which first copies this object unless its track holds the only reference (copy on
        // write); everything else is immutable.
        let plan: WorkoutPlan
        let quantity: Quantity
        /// The plan's anchor and step bounds relative to it (their buffer, shared by every
        /// session of the plan's steps).
        let anchor: Int64
        let offsets: [Int64]
        /// Milliseconds per step and status: index step * 3 + status, except what is still
        /// running (the running step's sums and the open run); only as far as the last step
        /// settled (a step never reached counts nothing, and takes no memory). 32 bits: a step
        /// lasts at most a day (the contract's bound, 86,400,000 ms).
        @exclusivity(unchecked) var counts: [Int32] = []

        init(plan: WorkoutPlan, quantity: Quantity) {
            self.plan = plan
            self.quantity = quantity
            anchor = plan.anchor
            offsets = plan.offsets
        }

        /// How many steps the plan has.
        var count: Int { offsets.count - 1 }

        /// When step `index` starts (`count`: when the plan ends).
        @inline(__always)
        func start(_ index: Int) -> Int64 { anchor &+ offsets[index] }

        /// Makes room in ``counts`` for step `step`'s three counts.
        func reserve(step: Int) {
            let needed = step * 3 + 3
            if counts.count < needed { counts.append(contentsOf: repeatElement(0, count: needed - counts.count)) }
        }

        /// This quantity's target in step `index`, read from the plan (which its sessions share,
        /// so it stays in cache however many sessions follow it).
        func target(ofStep index: Int) -> PlanTarget? { plan.steps[index].targets[quantity] }

        func copy() -> Steps {
            let copy = Steps(plan: plan, quantity: quantity)
            copy.counts = counts
            return copy
        }
    }

    // The fields are in the order of their use: the first 32 bytes are what a sample that
    // keeps its state reads; the rest is read when a run is settled, a sample moves
    // to another step or an interval leaves one. With a thousand sessions, each cache line
    // of a session that a sample touches is a cache miss.

    /// Read by the snapshot extension (TargetTrack+Snapshot.swift); written only through the
    /// mutating methods here, which copy it first when it is shared.
    var steps: Steps
    /// The step the latest sample fell in (or the span before or after the plan, without a
    /// target) ends at `cachedEnd`, and its target is compiled in `cachedTarget`: samples come
    /// in time order, so a later sample before that end is in the same step. Empty until the
    /// first sample.
    var cachedEnd: Int64 = .min
    /// The values with which a sample in the cached step keeps the state (``keepsState(_:at:)``):
    /// [steadyLow, steadyHigh), empty while a sample may change something. Not empty, an
    /// interval inside the cached step needs no crediting either.
    var steadyLow = Double.infinity
    var steadyHigh = -Double.infinity
    var cachedTarget = TargetBounds.none
    /// The state the latest samples have had since `candidateSince`, step -1 before any; the
    /// state of the open run.
    var candidateStatus = TargetStatus.in
    var publishedStatus = TargetStatus.in
    /// Whether the time covered since `runFrom` is the candidate state's: the latest sample
    /// fell in the cached step and had a status there. False until the first such sample,
    /// after an interval left the step, and after a restore.
    var runOpen = false
    // Step indices are 16 bits: a plan has at most `WorkoutPlan.maximumSteps` steps.
    var cachedStep: Int16 = -1
    var candidateStep: Int16 = -1
    /// The last published state, step -1 before the first.
    var publishedStep: Int16 = -1
    /// The step whose milliseconds are running, -1: none.
    var runningStep: Int16 = -1
    /// The running step's settled milliseconds (in, below, above), kept here until the
    /// crediting moves on to another step. 32 bits, as the counts: a step lasts at most a day.
    var runningIn: Int32 = 0
    var runningBelow: Int32 = 0
    var runningAbove: Int32 = 0
    /// The track's covered milliseconds when the open run began.
    var runFrom: Int64 = 0
    var candidateSince: Int64 = 0
    /// The state published before the last, for the change's `previous`; step -1: none.
    var previousStep: Int16 = -1
    /// The first step that may overlap the next credited interval (intervals come in time order).
    var creditCursor: Int16 = 0
    /// The first step that may hold the next accepted sample (samples come in time order).
    var stateCursor: Int16 = 0
    var previousStatus = TargetStatus.in

    /// The track of `quantity` under `plan`; nil when no step targets the quantity.
    /// Also nil for a plan of more than ``WorkoutPlan/maximumSteps`` steps or with a step
    /// longer than a day, which no input gives (the decoder and the snapshot reader refuse
    /// them): step indices are 16 bits and a step's milliseconds 32.
    init?(plan: WorkoutPlan, quantity: Quantity) {
        guard Self.tracks(quantity, of: plan) else { return nil }
        steps = Steps(plan: plan, quantity: quantity)
    }

    /// Whether a session under `plan` keeps a track of `quantity`'s target (what makes
    /// ``init(plan:quantity:)`` nil or not, without making the track).
    static func tracks(_ quantity: Quantity, of plan: WorkoutPlan) -> Bool {
        plan.steps.count <= WorkoutPlan.maximumSteps
            && plan.steps.allSatisfy { $0.durationMs <= WorkoutPlan.stepDurationRange.upperBound }
            && plan.steps.contains { $0.targets[quantity] != nil }
    }

    /// The track a quantity's target starts with under `plan`; nil when the plan does not
    /// target it.
    static func starting(_ quantity: Quantity, of plan: WorkoutPlan) -> TargetTrack? {
        tracks(quantity, of: plan) ? TargetTrack(plan: plan, quantity: quantity) : nil
    }

    /// A track with `steps` and its state at their defaults, for the snapshot to fill in.
    init(steps: Steps) { self.steps = steps }

    var plan: WorkoutPlan { steps.plan }

    /// The last published state, nil before the first.
    var publishedState: TargetChange.State? {
        publishedStep < 0 ? nil : TargetChange.State(step: Int(publishedStep), status: publishedStatus)
    }

    /// Milliseconds per step and status (index step * 3 + status), with what is running and
    /// the open run added; `covered` is the track's covered milliseconds.
    func settledCounts(covered: Int64) -> [Int64] {
        var settled = [Int64](repeating: 0, count: steps.count * 3)
        for (index, count) in steps.counts.enumerated() { settled[index] = Int64(count) }
        if runningStep >= 0 {
            let base = Int(runningStep) * 3
            settled[base] += Int64(runningIn)
            settled[base + 1] += Int64(runningBelow)
            settled[base + 2] += Int64(runningAbove)
        }
        if runOpen { settled[Int(candidateStep) * 3 + Int(candidateStatus.rawValue)] += covered - runFrom }
        return settled
    }

    /// Credits `milliseconds` of `step` at `status`, in the running sums when it is their step.
    private mutating func add(_ milliseconds: Int64, step: Int16, status: TargetStatus) {
        if step != runningStep { settleRunning(startingStep: step) }
        switch status {
        // Within one step of at most a day: no sum wraps.
        case .in: runningIn &+= Int32(truncatingIfNeeded: milliseconds)
        case .below: runningBelow &+= Int32(truncatingIfNeeded: milliseconds)
        case .above: runningAbove &+= Int32(truncatingIfNeeded: milliseconds)
        }
    }

    /// Moves the running sums into the counts and starts running `step`.
    @inline(never)
    private mutating func settleRunning(startingStep step: Int16) {
        if runningStep >= 0 {
            if !isKnownUniquelyReferenced(&steps) { steps = steps.copy() }
            steps.reserve(step: Int(runningStep))
            let base = Int(runningStep) * 3
            // Within a step's day at most; clamped all the same, so no count can trap.
            @inline(__always)
            func settle(_ index: Int, _ running: Int32) {
                steps.counts[index] = Int32(clamping: Int64(steps.counts[index]) &+ Int64(running))
            }
            settle(base, runningIn)
            settle(base + 1, runningBelow)
            settle(base + 2, runningAbove)
        }
        runningStep = step
        (runningIn, runningBelow, runningAbove) = (0, 0, 0)
    }

    /// Whether the covered interval ending at `to` needs no crediting: it is inside the open
    /// run's step, or inside a span without a status (a steady state, a range to keep it with,
    /// is one or the other). The interval starts at the latest sample, which the cached span
    /// holds. Checked before ``credit(value:zone:zoneCount:from:to:coveredBefore:)`` is called,
    /// so that an interval needing nothing does not gather the call's arguments first.
    @inline(__always)
    func creditsNothing(to: Int64) -> Bool { to <= cachedEnd && steadyLow <= steadyHigh }

    /// Credits the covered interval [from, to) of a value (in zone `zone`, 0-based, -1 without
    /// zones) to each step it overlaps that has a target for the quantity, split at step bounds,
    /// when ``creditsNothing(to:)`` is false: an interval that leaves the open run's step, or
    /// with no run open. The run (which holds the interval's start, the latest sample's time)
    /// is settled up to its step's end, and the rest is credited step by step.
    /// `coveredBefore` is the track's covered milliseconds before the interval.
    @inline(never)
    mutating func credit(
        value: Double, zone: Int, zoneCount: Int, from: Int64, to: Int64, coveredBefore: Int64
    ) {
        if to <= cachedEnd && (runOpen || !cachedTarget.hasStatus) { return }
        var from = from
        if runOpen {
            settleRun(covered: coveredBefore + (cachedEnd - from))
            from = cachedEnd
        }
        creditAcrossSteps(value: value, zone: zone, zoneCount: zoneCount, from: from, to: to)
    }

    /// Settles the open run, which covered up to `covered`, into its step's counts; until
    /// another opens, no sample keeps the state.
    @inline(__always)
    mutating func settleRun(covered: Int64) {
        add(covered - runFrom, step: candidateStep, status: candidateStatus)
        runOpen = false
        (steadyLow, steadyHigh) = (.infinity, -.infinity)
    }

    @inline(never)
    private mutating func creditAcrossSteps(value: Double, zone: Int, zoneCount: Int, from: Int64, to: Int64) {
        let steps = self.steps
        let count = steps.count
        var index = Int(creditCursor)
        while index < count && steps.start(index + 1) <= from { index += 1 }
        creditCursor = Int16(index)
        while index < count && steps.start(index) < to {
            let overlap = min(to, steps.start(index + 1)) - max(from, steps.start(index))
            if overlap > 0, let target = steps.target(ofStep: index),
                let status = target.status(of: value, zone: zone, zoneCount: zoneCount)
            {
                add(overlap, step: Int16(index), status: status)
            }
            index += 1
        }
    }
}

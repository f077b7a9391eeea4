/// The live target state: each accepted sample's step and status, with the dwell, and the
/// target changes they publish (contract, "Live target changes").
extension TargetTrack {
    /// Whether an accepted sample at `timestamp` with `value` leaves everything as it is: it
    /// falls in the cached step or span and keeps the state the latest samples had, which is
    /// the published one with its run open (or, in a span without a status, the run settled).
    /// The sample's whole cost when a member holds their state; otherwise
    /// ``observe(value:at:dwellMs:covered:)``, after ``moveState(to:zones:)`` when the sample is
    /// past the cached step (``isPastCachedStep(_:)``).
    @inline(__always)
    func keepsState(_ value: Double, at timestamp: Int64) -> Bool {
        timestamp < cachedEnd && value >= steadyLow && value < steadyHigh
    }

    /// An accepted sample at `timestamp`, after its predecessor's coverage was credited, which
    /// brought the track's covered milliseconds to `covered`: whether it publishes a target
    /// change (contract, "Live target changes", with `target_min_dwell_ms` as `dwellMs`), then
    /// read with ``publishedChange(_:of:at:value:)``. A flag rather than the change itself:
    /// returning the change through every sample's path cost more than building it on the
    /// rare sample that publishes one.
    @inline(__always)
    mutating func observe(value: Double, at timestamp: Int64, dwellMs: Int64, covered: Int64) -> Bool {
        let index = cachedStep
        guard let status = cachedTarget.status(of: value) else {
            if runOpen { settleRun(covered: covered) }
            (steadyLow, steadyHigh) = (-.infinity, .infinity)
            return false
        }
        if index != candidateStep || status != candidateStatus || !runOpen {
            if runOpen { settleRun(covered: covered) }
            if index != candidateStep || status != candidateStatus {
                (candidateStep, candidateStatus, candidateSince) = (index, status, timestamp)
            }
            (runOpen, runFrom) = (true, covered)
        }
        guard index != publishedStep || status != publishedStatus, timestamp &- candidateSince >= dwellMs
        else {
            updateSteadyRange()
            return false
        }
        (previousStep, previousStatus) = (publishedStep, publishedStatus)
        (publishedStep, publishedStatus) = (index, status)
        updateSteadyRange()
        return true
    }

    /// The values a sample keeps the state with: those of the candidate's status once it is
    /// published (while it waits out its dwell, every sample checks the dwell), none otherwise.
    @inline(__always)
    private mutating func updateSteadyRange() {
        guard runOpen, candidateStep == publishedStep, candidateStatus == publishedStatus else {
            (steadyLow, steadyHigh) = (.infinity, -.infinity)
            return
        }
        (steadyLow, steadyHigh) = cachedTarget.values(with: candidateStatus)
    }

    /// The change of `quantity` under `plan` (the session's, which the track was made for)
    /// that the sample at `timestamp` with `value` published (``observe(value:at:dwellMs:covered:)``
    /// returned true). Inlined, it reads the four fields the change needs where the track is
    /// (a call took a copy of the whole track first); the step's purpose, bounds and target come
    /// from the plan, shared by the session's class, rather than from the track's own heap
    /// object, a cache miss per change with a thousand sessions.
    @inline(__always)
    func publishedChange(_ quantity: Quantity, of plan: WorkoutPlan, at timestamp: Int64, value: Double)
        -> TargetChange
    {
        Self.change(
            quantity, of: plan, state: (publishedStep, publishedStatus), previous: (previousStep, previousStatus),
            at: timestamp, value: value)
    }

    private static func change(
        _ quantity: Quantity, of plan: WorkoutPlan, state: (step: Int16, status: TargetStatus),
        previous: (step: Int16, status: TargetStatus), at timestamp: Int64, value: Double
    ) -> TargetChange {
        let step = Int(state.step)
        return TargetChange(
            quantity: quantity, timestamp: timestamp, value: value,
            state: TargetChange.State(step: step, status: state.status),
            previous: previous.step < 0 ? nil : TargetChange.State(step: Int(previous.step), status: previous.status),
            purpose: plan.steps[step].purpose, stepStart: plan.start(ofStep: step), stepEnd: plan.end(ofStep: step),
            target: plan.steps[step].targets[quantity])
    }

    /// Whether a sample at `timestamp` is past the cached step: samples come in time order, so
    /// one before its end is in it.
    func isPastCachedStep(_ timestamp: Int64) -> Bool { timestamp >= cachedEnd }

    /// Moves the state cursor to the step holding `timestamp` and caches it, with its target
    /// compiled against `zones`, the track's. A time no step holds (before the plan's anchor,
    /// after its end) caches its span without a target, so that the samples of a member who
    /// rides on after the plan or warms up before the class take the cached path rather than
    /// searching the steps again.
    mutating func moveState(to timestamp: Int64, zones: borrowing ZoneConfiguration?) {
        let steps = self.steps
        let count = steps.count
        var index = Int(stateCursor)
        // Samples come in time order, so the cursor is never past a new sample's step; were
        // it, the search starts again from the first step.
        if timestamp < steps.start(index) { index = 0 }
        while index < count && steps.start(index + 1) <= timestamp { index += 1 }
        stateCursor = Int16(index)
        if index == count {
            cacheOutside(step: index, to: .max)
        } else if timestamp < steps.start(index) {
            cacheOutside(step: 0, to: steps.start(0))
        } else {
            cache(step: index, zones: zones)
        }
    }

    /// Caches a span no step covers, ending where step `index` starts (or, `index` being the
    /// step count, starting at the plan's end).
    private mutating func cacheOutside(step index: Int, to end: Int64) {
        cachedStep = Int16(index)
        cachedEnd = end
        cachedTarget = .none
    }

    /// Caches step `index`'s bounds and its target compiled against the track's zones.
    private mutating func cache(step index: Int, zones: borrowing ZoneConfiguration?) {
        cachedStep = Int16(index)
        cachedEnd = steps.start(index + 1)
        cachedTarget = TargetBounds(steps.target(ofStep: index), zones: copy zones)
    }
}

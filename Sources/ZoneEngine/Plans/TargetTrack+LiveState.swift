/// The live target state: each accepted sample's step and status, with the dwell, and the
/// target changes they publish (contract, "Live target changes").
extension TargetTrack {
    /// An accepted sample at `timestamp`: whether it publishes a target change (contract,
    /// "Live target changes", with `target_min_dwell_ms` as `dwellMs`), then read with
    /// ``publishedChange(at:value:)``. A flag rather than the change itself: returning the
    /// change through every sample's path cost more than building it on the rare sample that
    /// publishes one.
    @inline(__always)
    mutating func observe(value: Double, zone: Int, zoneCount: Int, at timestamp: Int64, dwellMs: Int64) -> Bool {
        // The cached step is where moveState left the state cursor.
        if timestamp < cachedStart || timestamp >= cachedEnd, !moveState(to: timestamp) {
            latestStatusKnown = false
            return false
        }
        let index = cachedStep
        guard let target = cachedTarget, let status = target.status(of: value, zone: zone, zoneCount: zoneCount)
        else {
            latestStatusKnown = false
            return false
        }
        latestStatusKnown = true
        if index != candidateStep || status != candidateStatus {
            candidateStep = index
            candidateStatus = status
            candidateSince = timestamp
        }
        guard index != publishedStep || status != publishedStatus, timestamp &- candidateSince >= dwellMs
        else { return false }
        (previousStep, previousStatus) = (publishedStep, publishedStatus)
        (publishedStep, publishedStatus) = (index, status)
        return true
    }

    /// The change the sample at `timestamp` with `value` published (``observe(value:zone:zoneCount:at:dwellMs:)``
    /// returned true).
    func publishedChange(at timestamp: Int64, value: Double) -> TargetChange {
        let step = Int(publishedStep)
        return TargetChange(
            quantity: steps.quantity, timestamp: timestamp, value: value,
            state: TargetChange.State(step: step, status: publishedStatus),
            previous: previousStep < 0 ? nil : TargetChange.State(step: Int(previousStep), status: previousStatus),
            purpose: steps.plan.steps[step].purpose, stepStart: steps.starts[step], stepEnd: steps.starts[step + 1],
            target: steps.targets[step])
    }

    /// Moves the state cursor to the step holding `timestamp` and caches it; false when no
    /// step holds it (before the plan's anchor, after its end). Those spans are cached too,
    /// without a target, so that the samples of a member who rides on after the plan or
    /// warms up before the class take the cached path rather than searching the steps again.
    @inline(never)
    private mutating func moveState(to timestamp: Int64) -> Bool {
        let steps = self.steps
        let count = steps.targets.count
        var index = Int(stateCursor)
        while index < count && steps.starts[index + 1] <= timestamp { index += 1 }
        stateCursor = Int16(index)
        if index == count {
            cacheOutside(step: index, from: steps.starts[count], to: .max)
            return false
        }
        guard timestamp >= steps.starts[index] else {
            // Samples come in time order, so only the span before the first step is here.
            if index == 0 { cacheOutside(step: 0, from: .min, to: steps.starts[0]) }
            return false
        }
        cache(step: index)
        return true
    }

    /// Caches a span no step covers, ending where step `index` starts (or, `index` being the
    /// step count, starting at the plan's end).
    private mutating func cacheOutside(step index: Int, from start: Int64, to end: Int64) {
        cachedStep = Int16(index)
        cachedStart = start
        cachedEnd = end
        cachedTarget = nil
    }

    /// Caches step `index`'s bounds and target.
    private mutating func cache(step index: Int) {
        cachedStep = Int16(index)
        cachedStart = steps.starts[index]
        cachedEnd = steps.starts[index + 1]
        cachedTarget = steps.targets[index]
    }
}

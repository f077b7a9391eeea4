/// One quantity's progress against its session's plan: time in target per step (in, below,
/// above), and the live target state (step, status) with its dwell. Kept in the quantity's
/// track, nil when the session has no plan or the plan never targets the quantity, so a
/// session without a plan pays one nil check per credited interval and per sample.
///
/// A value type with its state in one heap object, copied on write: a session holds 8 bytes
/// for it, and a plan of 200 steps its 4.8 KB of counts only when it has one.
struct TargetTrack: Sendable {
    final class Storage: @unchecked Sendable {
        // @unchecked: mutated only through TargetTrack's mutating methods, each of which first
        // copies the storage unless this track holds the only reference (copy on write).
        // `@exclusivity(unchecked)`: those are its only writers, on the session's one mutable
        // path, and the dynamic check on each class property cost every sample several calls.
        //
        // What every sample reads or writes comes first, so that it shares the object's first
        // two cache lines: with a thousand sessions each object is a cache miss, and the step
        // bounds, targets and counts behind their own buffers were three more per sample.

        /// The running step's milliseconds (in, below, above), kept here until the crediting
        /// moves on to another step.
        @exclusivity(unchecked) var runningIn: Int64 = 0
        @exclusivity(unchecked) var runningBelow: Int64 = 0
        @exclusivity(unchecked) var runningAbove: Int64 = 0
        /// The step the latest sample fell in, with its bounds and target copied out of the
        /// plan: an interval or sample inside [cachedStart, cachedEnd) needs nothing else.
        /// Empty (0, 0) until the first sample in a step.
        @exclusivity(unchecked) var cachedStart: Int64 = 0
        @exclusivity(unchecked) var cachedEnd: Int64 = 0
        @exclusivity(unchecked) var candidateSince: Int64 = 0
        @exclusivity(unchecked) var cachedTarget: PlanTarget?
        @exclusivity(unchecked) var cachedStep: Int32 = -1
        /// The step whose milliseconds are running, -1: none.
        @exclusivity(unchecked) var runningStep: Int32 = -1
        /// The state the latest samples have had since `candidateSince`, step -1 before any.
        @exclusivity(unchecked) var candidateStep: Int32 = -1
        /// The last published state, step -1 before the first.
        @exclusivity(unchecked) var publishedStep: Int32 = -1
        /// The first step that may overlap the next credited interval (intervals come in time order).
        @exclusivity(unchecked) var creditCursor: Int32 = 0
        /// The first step that may hold the next accepted sample (samples come in time order).
        @exclusivity(unchecked) var stateCursor: Int32 = 0
        @exclusivity(unchecked) var candidateStatus = TargetStatus.in
        @exclusivity(unchecked) var publishedStatus = TargetStatus.in

        let plan: WorkoutPlan
        let quantity: Quantity
        /// The plan's step bounds and this quantity's target per step, copied out of the plan
        /// once, for the steps a sample moves into.
        let starts: [Int64]
        let targets: [PlanTarget?]
        /// Milliseconds per step and status: index step * 3 + status, except what is still
        /// running for ``runningStep``.
        @exclusivity(unchecked) var counts: [Int64]

        init(plan: WorkoutPlan, quantity: Quantity) {
            self.plan = plan
            self.quantity = quantity
            starts = plan.starts
            targets = plan.targetsByQuantity[quantity]
            counts = Array(repeating: 0, count: plan.steps.count * 3)
        }

        /// The counts with what is running added.
        var settledCounts: [Int64] {
            guard runningStep >= 0 else { return counts }
            var settled = counts
            let base = Int(runningStep) * 3
            settled[base] += runningIn
            settled[base + 1] += runningBelow
            settled[base + 2] += runningAbove
            return settled
        }

        /// Credits `milliseconds` of `step` at `status`, in the running sums when it is their step.
        @inline(__always)
        func add(_ milliseconds: Int64, step: Int32, status: TargetStatus) {
            if step != runningStep { settleRunning(startingStep: step) }
            switch status {
            case .in: runningIn += milliseconds
            case .below: runningBelow += milliseconds
            case .above: runningAbove += milliseconds
            }
        }

        /// Moves the running sums into the counts and starts running `step`.
        @inline(never)
        func settleRunning(startingStep step: Int32) {
            if runningStep >= 0 {
                let base = Int(runningStep) * 3
                counts[base] += runningIn
                counts[base + 1] += runningBelow
                counts[base + 2] += runningAbove
            }
            runningStep = step
            (runningIn, runningBelow, runningAbove) = (0, 0, 0)
        }

        /// Caches step `index`'s bounds and target.
        func cache(step index: Int) {
            cachedStep = Int32(index)
            cachedStart = starts[index]
            cachedEnd = starts[index + 1]
            cachedTarget = targets[index]
        }

        func copy() -> Storage {
            let copy = Storage(plan: plan, quantity: quantity)
            copy.counts = counts
            copy.runningStep = runningStep
            copy.runningIn = runningIn
            copy.runningBelow = runningBelow
            copy.runningAbove = runningAbove
            copy.creditCursor = creditCursor
            copy.stateCursor = stateCursor
            copy.publishedStep = publishedStep
            copy.publishedStatus = publishedStatus
            copy.candidateStep = candidateStep
            copy.candidateStatus = candidateStatus
            copy.candidateSince = candidateSince
            return copy
        }
    }

    /// Read by the snapshot extension (TargetTrack+Snapshot.swift); written only through the
    /// mutating methods here, which copy it first when it is shared.
    var storage: Storage

    /// The track of `quantity` under `plan`; nil when no step targets the quantity.
    init?(plan: WorkoutPlan, quantity: Quantity) {
        guard plan.steps.contains(where: { $0.targets[quantity] != nil }) else { return nil }
        storage = Storage(plan: plan, quantity: quantity)
    }

    var plan: WorkoutPlan { storage.plan }

    /// The last published state, nil before the first.
    var publishedState: TargetChange.State? {
        storage.publishedStep < 0
            ? nil : TargetChange.State(step: Int(storage.publishedStep), status: storage.publishedStatus)
    }

    /// Milliseconds of `step` (0-based) with `status`.
    func milliseconds(step: Int, _ status: TargetStatus) -> Int64 {
        var milliseconds = storage.counts[step * 3 + Int(status.rawValue)]
        if step == Int(storage.runningStep) {
            switch status {
            case .in: milliseconds += storage.runningIn
            case .below: milliseconds += storage.runningBelow
            case .above: milliseconds += storage.runningAbove
            }
        }
        return milliseconds
    }

    private mutating func unique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Credits the covered interval [from, to) of a value (in zone `zone`, 0-based, -1 without
    /// zones) to each step it overlaps that has a target for the quantity, split at step bounds.
    mutating func credit(value: Double, zone: Int, zoneCount: Int, from: Int64, to: Int64) {
        unique()
        let storage = self.storage
        if from >= storage.cachedStart && to <= storage.cachedEnd {
            // Within the latest sample's step: the usual case, one step and its cached target.
            storage.creditCursor = storage.cachedStep
            if let target = storage.cachedTarget,
                let status = target.status(of: value, zone: zone, zoneCount: zoneCount)
            {
                storage.add(to - from, step: storage.cachedStep, status: status)
            }
            return
        }
        creditAcrossSteps(value: value, zone: zone, zoneCount: zoneCount, from: from, to: to)
    }

    @inline(never)
    private func creditAcrossSteps(value: Double, zone: Int, zoneCount: Int, from: Int64, to: Int64) {
        let steps = storage.targets.count
        storage.starts.withUnsafeBufferPointer { starts in
            var index = Int(storage.creditCursor)
            while index < steps && starts[index + 1] <= from { index += 1 }
            storage.creditCursor = Int32(index)
            while index < steps && starts[index] < to {
                let overlap = min(to, starts[index + 1]) - max(from, starts[index])
                if overlap > 0, let target = storage.targets[index],
                    let status = target.status(of: value, zone: zone, zoneCount: zoneCount)
                {
                    storage.add(overlap, step: Int32(index), status: status)
                }
                index += 1
            }
        }
    }

    /// An accepted sample at `timestamp`: the target change it publishes, if any (contract,
    /// "Live target changes", with `target_min_dwell_ms` as `dwellMs`).
    mutating func observe(value: Double, zone: Int, zoneCount: Int, at timestamp: Int64, dwellMs: Int64)
        -> TargetChange?
    {
        unique()
        let storage = self.storage
        if timestamp < storage.cachedStart || timestamp >= storage.cachedEnd {
            guard moveState(to: timestamp) else { return nil }
        } else {
            storage.stateCursor = storage.cachedStep
        }
        let index = storage.cachedStep
        guard let target = storage.cachedTarget,
            let status = target.status(of: value, zone: zone, zoneCount: zoneCount)
        else { return nil }
        if index != storage.candidateStep || status != storage.candidateStatus {
            storage.candidateStep = index
            storage.candidateStatus = status
            storage.candidateSince = timestamp
        }
        guard index != storage.publishedStep || status != storage.publishedStatus,
            timestamp - storage.candidateSince >= dwellMs
        else { return nil }
        return publish(step: index, status: status, value: value, at: timestamp)
    }

    /// Moves the state cursor to the step holding `timestamp` and caches it; false when no
    /// step holds it (before the plan's anchor, after its end).
    @inline(never)
    private func moveState(to timestamp: Int64) -> Bool {
        let steps = storage.targets.count
        var index = Int(storage.stateCursor)
        let inStep = storage.starts.withUnsafeBufferPointer { starts in
            while index < steps && starts[index + 1] <= timestamp { index += 1 }
            return index < steps && timestamp >= starts[index]
        }
        storage.stateCursor = Int32(index)
        if inStep { storage.cache(step: index) }
        return inStep
    }

    @inline(never)
    private func publish(step index: Int32, status: TargetStatus, value: Double, at timestamp: Int64) -> TargetChange {
        let previous =
            storage.publishedStep < 0
            ? nil : TargetChange.State(step: Int(storage.publishedStep), status: storage.publishedStatus)
        storage.publishedStep = index
        storage.publishedStatus = status
        return TargetChange(
            quantity: storage.quantity, timestamp: timestamp, value: value,
            state: TargetChange.State(step: Int(index), status: status), previous: previous, plan: storage.plan)
    }
}

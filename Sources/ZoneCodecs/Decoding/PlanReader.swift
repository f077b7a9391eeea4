import ZoneEngine

/// Reads a plan (contract, section 3): `{"plan", "steps"}` with steps and repeat blocks,
/// flattened, every rule checked. The same reader serves a `session_start`'s `plan` field and
/// a `class-plans` record; any defect refuses the whole plan with the first one found.
enum PlanReader {
    /// The most entries in `steps` and in a block's `steps`, and a block's most repeats.
    static let maximumEntries = 50
    static let maximumRepeats: Int64 = 50
    static let maximumNameBytes = 64

    /// The plan `root` describes, anchored at `anchor`, or the first defect.
    static func read<Value: JSONValueView>(_ root: Value, anchor: Int64, source: WorkoutPlan.Source)
        -> Result<WorkoutPlan, ZoneDefect>
    {
        guard root.kind == .object else { return .failure(ZoneDefect("a plan must be an object")) }
        var name: String?
        if let field = root.presentMember("plan") {
            guard field.kind == .string, (1...maximumNameBytes).contains(field.stringByteCount) else {
                return .failure(ZoneDefect("'plan' must be a name of 1 to 64 bytes"))
            }
            name = field.stringValue
        }
        guard let entries = root.presentMember("steps") else { return .failure(ZoneDefect("'steps' is absent")) }
        var steps: [PlanStep] = []
        if let defect = readEntries(entries, into: &steps, allowingBlocks: true) { return .failure(defect) }
        guard steps.count <= WorkoutPlan.maximumSteps else {
            return .failure(ZoneDefect("\(steps.count) steps once flattened, at most \(WorkoutPlan.maximumSteps)"))
        }
        return .success(WorkoutPlan(name: name, source: source, anchor: anchor, steps: steps))
    }

    /// Appends the steps of a `steps` array (blocks unrolled); the first defect, or nil.
    private static func readEntries<Value: JSONValueView>(
        _ entries: Value, into steps: inout [PlanStep], allowingBlocks: Bool
    ) -> ZoneDefect? {
        guard entries.kind == .array, (1...maximumEntries).contains(entries.elementCount) else {
            return ZoneDefect("'steps' must be an array of 1 to 50 entries")
        }
        var defect: ZoneDefect?
        entries.forEachElement { entry in
            defect = readEntry(entry, into: &steps, allowingBlocks: allowingBlocks)
            // Stop early once the plan can no longer fit: a hostile plan does not unroll 2,500 steps.
            if defect == nil && steps.count > WorkoutPlan.maximumSteps {
                defect = ZoneDefect("more than \(WorkoutPlan.maximumSteps) steps once flattened")
            }
            return defect == nil
        }
        return defect
    }

    private static func readEntry<Value: JSONValueView>(
        _ entry: Value, into steps: inout [PlanStep], allowingBlocks: Bool
    ) -> ZoneDefect? {
        guard entry.kind == .object else { return ZoneDefect("a step must be an object") }
        guard let repeats = entry.presentMember("repeat") else {
            switch step(entry) {
            case .success(let step):
                steps.append(step)
                return nil
            case .failure(let defect): return defect
            }
        }
        guard allowingBlocks else { return ZoneDefect("a repeat block inside a repeat block") }
        guard let count = repeats.integerValue, (1...maximumRepeats).contains(count) else {
            return ZoneDefect("'repeat' must be an integer from 1 to 50")
        }
        guard let inner = entry.presentMember("steps") else { return ZoneDefect("a repeat block without 'steps'") }
        var block: [PlanStep] = []
        if let defect = readEntries(inner, into: &block, allowingBlocks: false) { return defect }
        for _ in 0..<count {
            steps += block
            if steps.count > WorkoutPlan.maximumSteps { return nil }
        }
        return nil
    }

    private static func step<Value: JSONValueView>(_ entry: Value) -> Result<PlanStep, ZoneDefect> {
        var purpose = PlanStep.Purpose.other
        if let field = entry.presentMember("purpose") {
            guard field.kind == .string, let text = field.stringValue, let known = PlanStep.Purpose(rawValue: text)
            else { return .failure(ZoneDefect("'purpose' must be warmup, work, recovery, cooldown or other")) }
            purpose = known
        }
        guard let durationField = entry.presentMember("duration_ms") else {
            return .failure(ZoneDefect("a step without 'duration_ms'"))
        }
        guard let duration = durationField.integerValue, WorkoutPlan.stepDurationRange.contains(duration) else {
            return .failure(ZoneDefect("'duration_ms' must be an integer from 1000 to 86400000"))
        }
        var targets = PerQuantity<PlanTarget?>(repeating: nil)
        if let field = entry.presentMember("target") {
            switch readTargets(field) {
            case .success(let read): targets = read
            case .failure(let defect): return .failure(defect)
            }
        }
        return .success(PlanStep(purpose: purpose, durationMs: duration, targets: targets))
    }

    private static func readTargets<Value: JSONValueView>(_ field: Value) -> Result<
        PerQuantity<PlanTarget?>, ZoneDefect
    > {
        guard field.kind == .object else { return .failure(ZoneDefect("'target' must be an object")) }
        var targets = PerQuantity<PlanTarget?>(repeating: nil)
        var any = false
        for (name, entry) in field.members where entry.kind != .null {
            guard let quantity = Quantity(name: name) else {
                return .failure(ZoneDefect("unknown quantity '\(name)' in a target"))
            }
            switch target(entry, quantity: quantity) {
            case .success(let target):
                targets[quantity] = target
                any = true
            case .failure(let defect): return .failure(ZoneDefect("\(name): \(defect)"))
            }
        }
        guard any else { return .failure(ZoneDefect("a target with no quantity")) }
        return .success(targets)
    }

    private static func target<Value: JSONValueView>(_ entry: Value, quantity: Quantity) -> Result<
        PlanTarget, ZoneDefect
    > {
        guard entry.kind == .object else { return .failure(ZoneDefect("a target must be an object")) }
        let minimumField = entry.presentMember("min")
        let maximumField = entry.presentMember("max")
        if let zones = entry.presentMember("zones") {
            guard minimumField == nil, maximumField == nil else {
                return .failure(ZoneDefect("a target is a zone range or a value range, not both"))
            }
            return zoneRange(zones)
        }
        guard minimumField != nil || maximumField != nil else {
            return .failure(ZoneDefect("a target needs 'zones', or 'min' and/or 'max'"))
        }
        var factor = 1.0
        if let unit = entry.presentMember("unit") {
            guard unit.kind == .string, let text = unit.stringValue,
                let known = quantity.conversionFactor(forUnit: text)
            else { return .failure(ZoneDefect("a unit not accepted for \(quantity.name)")) }
            factor = known
        }
        func bound(_ field: Value?) -> Result<Double?, ZoneDefect> {
            guard let field else { return .success(nil) }
            guard field.isNumber, let number = field.doubleValue, number.isFinite else {
                return .failure(ZoneDefect("'min' and 'max' must be finite numbers"))
            }
            let converted = number * factor
            guard quantity.isValidReading(converted) else {
                return .failure(ZoneDefect("'min' or 'max' outside \(quantity.name)'s valid values"))
            }
            return .success(converted)
        }
        let minimum: Double?
        let maximum: Double?
        switch (bound(minimumField), bound(maximumField)) {
        case (.success(let low), .success(let high)): (minimum, maximum) = (low, high)
        case (.failure(let defect), _), (_, .failure(let defect)): return .failure(defect)
        }
        if let minimum, let maximum, minimum >= maximum { return .failure(ZoneDefect("'min' must be below 'max'")) }
        return .success(.values(minimum: minimum, maximum: maximum))
    }

    private static func zoneRange<Value: JSONValueView>(_ field: Value) -> Result<PlanTarget, ZoneDefect> {
        var bounds: [Int64] = []
        var integers = field.kind == .array && field.elementCount == 2
        if integers {
            field.forEachElement { element in
                integers = element.integerValue != nil
                if let value = element.integerValue { bounds.append(value) }
                return integers
            }
        }
        guard integers, bounds.count == 2, 1 <= bounds[0], bounds[0] <= bounds[1], bounds[1] <= 9 else {
            return .failure(ZoneDefect("'zones' must be [low, high], integers with 1 <= low <= high <= 9"))
        }
        return .success(.zones(low: Int(bounds[0]), high: Int(bounds[1])))
    }
}

/// A plan in the changelog snapshot: name, source, anchor and its flattened steps with their
/// targets, read back under the same limits as the contract puts on a plan. Format 3 writes
/// every step; format 4 writes each distinct step once and the plan as one byte per step
/// naming it, so a 200-step plan of repeated intervals costs a few hundred bytes a snapshot.
extension WorkoutPlan {
    func write(to writer: inout SnapshotWriter, format: UInt8) {
        writer.write(name)
        writer.write(source == .session)
        writer.write(anchor)
        guard format >= 4 else {
            writer.write(steps.count)
            for step in steps { step.write(to: &writer) }
            return
        }
        var distinct: [PlanStep] = []
        var indices: [UInt8] = []
        indices.reserveCapacity(steps.count)
        for step in steps {
            let index = distinct.firstIndex(of: step) ?? distinct.count
            if index == distinct.count { distinct.append(step) }
            // At most 200 steps (``maximumSteps``), so an index fits in a byte.
            indices.append(UInt8(truncatingIfNeeded: index))
        }
        writer.write(distinct.count)
        for step in distinct { step.write(to: &writer) }
        writer.write(indices.count)
        writer.bytes.append(contentsOf: indices)
    }

    static func read(from reader: inout SnapshotReader, version: UInt8) throws(SnapshotError) -> WorkoutPlan {
        let name = try reader.readOptionalString()
        let source: Source = try reader.readBool() ? .session : .class
        let anchor = try reader.readBounded()
        var steps: [PlanStep] = []
        if version >= 4 {
            let distinctCount = try reader.readCount(limit: maximumSteps)
            var distinct: [PlanStep] = []
            for _ in 0..<distinctCount { distinct.append(try PlanStep.read(from: &reader)) }
            let count = try reader.readCount(limit: maximumSteps)
            for _ in 0..<count {
                let index = Int(try reader.readByte())
                guard index < distinct.count else { throw SnapshotError("a plan step names no step") }
                steps.append(distinct[index])
            }
        } else {
            let count = try reader.readCount(limit: maximumSteps)
            for _ in 0..<count { steps.append(try PlanStep.read(from: &reader)) }
        }
        guard !steps.isEmpty else { throw SnapshotError("a plan without steps") }
        let length = steps.reduce(Int64(0)) { $0 + $1.durationMs }
        guard anchor + length <= SnapshotReader.maximumMagnitude else {
            throw SnapshotError("a plan that ends past 2^53")
        }
        return WorkoutPlan(name: name, source: source, anchor: anchor, steps: steps)
    }
}

extension PlanStep {
    fileprivate func write(to writer: inout SnapshotWriter) {
        writer.write(UInt8(Purpose.allCases.firstIndex(of: purpose) ?? 0))
        writer.write(durationMs)
        for quantity in Quantity.allCases {
            switch targets[quantity] {
            case nil: writer.write(UInt8(0))
            case .zones(let low, let high):
                writer.write(UInt8(1))
                writer.write(low)
                writer.write(high)
            case .values(let minimum, let maximum):
                writer.write(UInt8(2))
                writer.write(minimum != nil)
                if let minimum { writer.write(minimum) }
                writer.write(maximum != nil)
                if let maximum { writer.write(maximum) }
            }
        }
    }

    fileprivate static func read(from reader: inout SnapshotReader) throws(SnapshotError) -> PlanStep {
        let purposeIndex = Int(try reader.readByte())
        guard purposeIndex < Purpose.allCases.count else { throw SnapshotError("unknown step purpose") }
        let duration = try reader.readInt64()
        guard WorkoutPlan.stepDurationRange.contains(duration) else {
            throw SnapshotError("a step duration out of range")
        }
        var targets = PerQuantity<PlanTarget?>(repeating: nil)
        for quantity in Quantity.allCases { targets[quantity] = try readTarget(&reader) }
        return PlanStep(purpose: Purpose.allCases[purposeIndex], durationMs: duration, targets: targets)
    }

    private static func readTarget(_ reader: inout SnapshotReader) throws(SnapshotError) -> PlanTarget? {
        switch try reader.readByte() {
        case 0: return nil
        case 1:
            let (low, high) = (try reader.readInt64(), try reader.readInt64())
            guard 1 <= low, low <= high, high <= 9 else { throw SnapshotError("a zone target out of range") }
            return .zones(low: Int(low), high: Int(high))
        case 2:
            let minimum = try reader.readBool() ? try reader.readFinite() : nil
            let maximum = try reader.readBool() ? try reader.readFinite() : nil
            guard minimum != nil || maximum != nil else { throw SnapshotError("a value target without bounds") }
            return .values(minimum: minimum, maximum: maximum)
        default: throw SnapshotError("unknown target kind")
        }
    }
}

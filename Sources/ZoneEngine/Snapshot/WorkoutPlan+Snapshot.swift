/// A plan in the changelog snapshot (format 3): name, source, anchor and every flattened step
/// with its targets, read back under the same limits as the contract puts on a plan.
extension WorkoutPlan {
    func write(to writer: inout SnapshotWriter) {
        writer.write(name)
        writer.write(source == .session)
        writer.write(anchor)
        writer.write(steps.count)
        for step in steps {
            writer.write(UInt8(PlanStep.Purpose.allCases.firstIndex(of: step.purpose) ?? 0))
            writer.write(step.durationMs)
            for quantity in Quantity.allCases {
                switch step.targets[quantity] {
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
    }

    static func read(from reader: inout SnapshotReader) throws(SnapshotError) -> WorkoutPlan {
        let name = try reader.readOptionalString()
        let source: Source = try reader.readBool() ? .session : .class
        let anchor = try reader.readBounded()
        let count = try reader.readCount(limit: maximumSteps)
        guard count > 0 else { throw SnapshotError("a plan without steps") }
        var steps: [PlanStep] = []
        var end = anchor
        for _ in 0..<count {
            let purposeIndex = Int(try reader.readByte())
            guard purposeIndex < PlanStep.Purpose.allCases.count else { throw SnapshotError("unknown step purpose") }
            let duration = try reader.readInt64()
            guard stepDurationRange.contains(duration) else { throw SnapshotError("a step duration out of range") }
            end += duration
            var targets = PerQuantity<PlanTarget?>(repeating: nil)
            for quantity in Quantity.allCases { targets[quantity] = try readTarget(&reader) }
            steps.append(
                PlanStep(purpose: PlanStep.Purpose.allCases[purposeIndex], durationMs: duration, targets: targets))
        }
        guard end <= SnapshotReader.maximumMagnitude else { throw SnapshotError("a plan that ends past 2^53") }
        return WorkoutPlan(name: name, source: source, anchor: anchor, steps: steps)
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

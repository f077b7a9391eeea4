extension TargetTrack {
    /// The track's state for the changelog snapshot (format 3), `covered` being the track's
    /// covered milliseconds; the plan is written once, by the session.
    func write(to writer: inout SnapshotWriter, covered: Int64) {
        for count in settledCounts(covered: covered) { writer.write(count) }
        writer.write(Int(creditCursor))
        writer.write(Int(stateCursor))
        writer.write(Int(publishedStep))
        writer.write(UInt8(publishedStatus.rawValue))
        writer.write(Int(candidateStep))
        writer.write(UInt8(candidateStatus.rawValue))
        writer.write(candidateSince)
    }

    /// Reads back what ``write(to:)`` wrote for the track of `quantity` under `plan`, every
    /// count, cursor and step checked against the plan.
    init(plan: WorkoutPlan, quantity: Quantity, reading reader: inout SnapshotReader) throws(SnapshotError) {
        let storage = Steps(plan: plan, quantity: quantity)
        let steps = plan.steps.count
        for index in storage.counts.indices {
            let milliseconds = try reader.readBounded()
            let step = index / 3
            guard milliseconds <= storage.starts[step + 1] - storage.starts[step] else {
                throw SnapshotError("step \(step)'s \(milliseconds) ms are more than the step lasts")
            }
            storage.counts[index] = Int32(milliseconds)
        }
        self.init(steps: storage)
        func step(allowingNone: Bool, limit: Int) throws(SnapshotError) -> Int16 {
            let value = try reader.readInt64()
            guard value >= (allowingNone ? -1 : 0), value <= Int64(limit) else {
                throw SnapshotError("a plan step index \(value) is outside the plan's \(steps) steps")
            }
            return Int16(value)
        }
        func status() throws(SnapshotError) -> TargetStatus {
            guard let status = TargetStatus(rawValue: Int8(bitPattern: try reader.readByte())) else {
                throw SnapshotError("unknown target status")
            }
            return status
        }
        creditCursor = try step(allowingNone: false, limit: steps)
        stateCursor = try step(allowingNone: false, limit: steps)
        publishedStep = try step(allowingNone: true, limit: steps - 1)
        publishedStatus = try status()
        candidateStep = try step(allowingNone: true, limit: steps - 1)
        candidateStatus = try status()
        candidateSince = try reader.readBounded()
    }
}

extension TargetTrack {
    /// The track's state for the changelog snapshot, `covered` being the track's covered
    /// milliseconds; the plan is written once, by the session. Format 3 writes every step's
    /// counts in 64 bits; format 4 only as far as the last step with time counted, in 32 bits
    /// (a step lasts at most a day).
    func write(to writer: inout SnapshotWriter, covered: Int64, format: UInt8) {
        let settled = settledCounts(covered: covered)
        guard format >= 4 else {
            for count in settled { writer.write(count) }
            return writeState(to: &writer)
        }
        let used = (settled.lastIndex { $0 != 0 }).map { ($0 / 3 + 1) * 3 } ?? 0
        writer.write(used)
        for count in settled[..<used] { writer.write(UInt32(clamping: count)) }
        writeState(to: &writer)
    }

    private func writeState(to writer: inout SnapshotWriter) {
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
    init(
        plan: WorkoutPlan, quantity: Quantity, reading reader: inout SnapshotReader, version: UInt8
    ) throws(SnapshotError) {
        let storage = Steps(plan: plan, quantity: quantity)
        let steps = plan.steps.count
        let used = version >= 4 ? try reader.readCount(limit: steps * 3) : steps * 3
        guard used % 3 == 0 else { throw SnapshotError("\(used) step counts are not three per step") }
        storage.counts = [Int32](repeating: 0, count: used)
        for index in 0..<used {
            let milliseconds = version >= 4 ? Int64(try reader.readUInt32()) : try reader.readBounded()
            let step = index / 3
            guard milliseconds <= storage.start(step + 1) - storage.start(step) else {
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

extension ClassDayLog {
    /// The snapshot format's version byte; a reader refuses any other.
    static let snapshotVersion: UInt8 = 1

    /// The class's day as bytes, for the class stage's changelog.
    public func snapshot() -> [UInt8] {
        var writer = SnapshotWriter(capacity: 64 + workouts.count * 160)
        writer.write(Self.snapshotVersion)
        writer.write(sessionClass)
        writer.write(day != nil)
        if let day { writer.write(day) }
        writer.write(workouts.count)
        for workout in workouts {
            writer.write(workout.session)
            writer.write(workout.startTimestamp)
            writer.write(workout.endTimestamp)
            writer.write(workout.durationMs)
            writer.write(workout.person)
            for figure in [workout.pointsTenths, workout.caloriesKcal, workout.kilojoulesTenths] {
                writer.write(figure != nil)
                if let figure { writer.write(figure) }
            }
            for band in workout.intensityMs { writer.write(band) }
            writer.write(workout.compliance != nil)
            for quantity in Quantity.allCases where workout.compliance != nil {
                let counts = workout.compliance?[quantity]
                writer.write(counts != nil)
                if let counts {
                    writer.write(counts.inMs)
                    writer.write(counts.countedMs)
                }
            }
        }
        return writer.bytes
    }

    /// Reads a class's day back from ``snapshot()``'s bytes, every workout checked against the
    /// bounds a finished workout can have.
    public init(snapshot bytes: UnsafeRawBufferPointer) throws(SnapshotError) {
        var reader = SnapshotReader(bytes)
        let version = try reader.readByte()
        guard version == Self.snapshotVersion else {
            throw SnapshotError("class day version \(version) is not \(Self.snapshotVersion)")
        }
        sessionClass = try reader.readString()
        day = try reader.readBool() ? try reader.readInt64() : nil
        if let day, abs(day) > 1 << 40 { throw SnapshotError("class day \(day) out of range") }
        let count = try reader.readCount(limit: min(Self.maximumWorkouts, bytes.count / 80))
        for _ in 0..<count {
            let session = try reader.readString()
            let (start, end, duration) = (try reader.readInt64(), try reader.readInt64(), try reader.readInt64())
            let person = try reader.readOptionalString()
            var figures: [Int64?] = []
            for _ in 0..<3 { figures.append(try reader.readBool() ? try reader.readInt64() : nil) }
            var intensity: [Int64] = []
            for _ in 0..<6 { intensity.append(try reader.readInt64()) }
            var compliance: PerQuantity<ClassWorkout.ComplianceCounts?>?
            if try reader.readBool() {
                var counts = PerQuantity<ClassWorkout.ComplianceCounts?>(repeating: nil)
                for quantity in Quantity.allCases where try reader.readBool() {
                    counts[quantity] = ClassWorkout.ComplianceCounts(
                        inMs: try reader.readInt64(), countedMs: try reader.readInt64())
                }
                compliance = counts
            }
            let workout = ClassWorkout(
                session: session, startTimestamp: start, endTimestamp: end, durationMs: duration, person: person,
                pointsTenths: figures[0], caloriesKcal: figures[1], kilojoulesTenths: figures[2],
                intensityMs: intensity, compliance: compliance)
            guard workout.isWithinBounds else {
                throw SnapshotError("workout \(session): times or figures out of range")
            }
            workouts.append(workout)
        }
        totals = ClassDayTotals(workouts)
        guard reader.isAtEnd else { throw SnapshotError("\(bytes.count - reader.position) bytes after the class day") }
    }
}

extension PersonTrainingLog {
    /// The snapshot format's version byte; a reader refuses any other.
    static let snapshotVersion: UInt8 = 1

    /// The person's log as bytes, for the person stage's changelog.
    public func snapshot() -> [UInt8] {
        var writer = SnapshotWriter(capacity: 64 + workouts.count * 64)
        writer.write(Self.snapshotVersion)
        writer.write(person)
        writer.write(workouts.count)
        for workout in workouts {
            writer.write(workout.session)
            writer.write(workout.startTimestamp)
            writer.write(workout.endTimestamp)
            writer.write(workout.durationMs)
            writer.write(workout.pointsTenths)
            writer.write(workout.caloriesKcal)
            writer.write(workout.kilojoulesTenths)
        }
        return writer.bytes
    }

    /// Reads a log back from ``snapshot()``'s bytes.
    public init(snapshot bytes: UnsafeRawBufferPointer) throws(SnapshotError) {
        var reader = SnapshotReader(bytes)
        let version = try reader.readByte()
        guard version == Self.snapshotVersion else {
            throw SnapshotError("person log version \(version) is not \(Self.snapshotVersion)")
        }
        person = try reader.readString()
        let count = try reader.readCount(limit: min(Self.maximumWorkouts, bytes.count / 56))
        for _ in 0..<count {
            let workout = CountedWorkout(
                session: try reader.readString(), startTimestamp: try reader.readInt64(),
                endTimestamp: try reader.readInt64(), durationMs: try reader.readInt64(),
                pointsTenths: try reader.readInt64(), caloriesKcal: try reader.readInt64(),
                kilojoulesTenths: try reader.readInt64())
            guard workout.isWithinBounds else {
                throw SnapshotError("workout \(workout.session): times or figures out of range")
            }
            workouts.append(workout)
        }
        guard reader.isAtEnd else { throw SnapshotError("\(bytes.count - reader.position) bytes after the person log") }
    }
}

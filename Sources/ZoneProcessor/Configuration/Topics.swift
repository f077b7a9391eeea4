public import ZoneKafka

/// The contract's topic names (CONTRACT.md sections 3 and 4); each can be renamed in config.
public struct Topics: Sendable, Equatable {
    public var workoutEvents = "workout-events"
    public var zoneProfiles = "zone-profiles"
    public var zoneChanges = "zone-changes"
    public var workoutsFinished = "workouts-finished"
    public var deadLetters = "zonestream-dlq"
    /// Session state per partition of `workout-events` (compacted, same partition count).
    public var changelog = "zonestream-changelog"

    public init() {}

    /// Every topic the processor reads or writes.
    public var all: [String] { [workoutEvents, zoneProfiles, zoneChanges, workoutsFinished, deadLetters, changelog] }

    /// Every topic as it is created on a real cluster: `partitions` each (the changelog must
    /// match `workout-events`), the profile table and the changelog compacted.
    public func specifications(partitions: Int, replicationFactor: Int = 1) -> [TopicAdmin.Specification] {
        all.map { name in
            TopicAdmin.Specification(
                name: name, partitions: partitions, replicationFactor: replicationFactor,
                configs: name == zoneProfiles || name == changelog ? ["cleanup.policy": "compact"] : [:])
        }
    }
}

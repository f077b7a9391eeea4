public import ZoneKafka

/// The contract's topic names (docs/contract.md); each can be renamed in config.
public struct Topics: Sendable, Equatable {
    public var workoutEvents = "workout-events"
    public var zoneProfiles = "zone-profiles"
    public var zoneChanges = "zone-changes"
    public var workoutsFinished = "workouts-finished"
    public var deadLetters = "zonestream-dlq"
    /// Session state per partition of `workout-events` (compacted, same partition count).
    public var changelog = "zonestream-changelog"
    /// Each person's training over recent days (compacted; key = person id).
    public var personSummaries = "person-summaries"
    /// The person stage's repartition topic: finished workouts with a person, keyed by it.
    public var personWorkouts = "zonestream-person-workouts"
    /// The person table's state per partition of ``personWorkouts`` (compacted, same count).
    public var personChangelog = "zonestream-person-changelog"
    /// Live target changes of sessions that follow a plan.
    public var targetChanges = "target-changes"
    /// Each class's plan (compacted; key = class id), a table like the profiles.
    public var classPlans = "class-plans"
    /// Each class's results per local day (compacted; key = `<class>@<day>`).
    public var classSummaries = "class-summaries"
    /// The class stage's repartition topic: finished workouts with a class, keyed by class and day.
    public var classWorkouts = "zonestream-class-workouts"
    /// The class table's state per partition of ``classWorkouts`` (compacted, same count).
    public var classChangelog = "zonestream-class-changelog"

    public init() {}

    /// Every topic the processor reads or writes.
    public var all: [String] {
        [
            workoutEvents, zoneProfiles, zoneChanges, workoutsFinished, deadLetters, changelog, personSummaries,
            personWorkouts, personChangelog, targetChanges, classPlans, classSummaries, classWorkouts,
            classChangelog,
        ]
    }

    /// The topics kept by key (compacted): tables and state.
    public var compacted: Set<String> {
        [zoneProfiles, changelog, personSummaries, personChangelog, classPlans, classSummaries, classChangelog]
    }

    /// Every topic as it is created on a real cluster: `partitions` each (each changelog must
    /// match the topic it keeps the state of), tables and changelogs compacted.
    public func specifications(partitions: Int, replicationFactor: Int = -1) -> [TopicAdmin.Specification] {
        all.map { name in
            TopicAdmin.Specification(
                name: name, partitions: partitions, replicationFactor: replicationFactor,
                configs: compacted.contains(name) ? ["cleanup.policy": "compact"] : [:])
        }
    }
}

public import ZoneKafka

/// The contract's topic names (docs/reference/contract.md); each can be renamed in config. The internal
/// topics (changelogs and repartition topics) are named after the application, its consumer
/// group, as Kafka Streams names them after its `application.id`: two applications on one
/// cluster never share state.
public struct Topics: Sendable, Equatable {
    public var workoutEvents = "workout-events"
    public var zoneProfiles = "zone-profiles"
    public var zoneChanges = "zone-changes"
    public var workoutsFinished = "workouts-finished"
    public var deadLetters = "zonestream-dlq"
    /// Session state per partition of `workout-events` (compacted, same partition count).
    public var changelog: String
    /// Each person's training over recent days (compacted; key = person id).
    public var personSummaries = "person-summaries"
    /// The person stage's repartition topic: finished workouts with a person, keyed by it.
    public var personWorkouts: String
    /// The person table's state per partition of ``personWorkouts`` (compacted, same count).
    public var personChangelog: String
    /// Live target changes of sessions that follow a plan.
    public var targetChanges = "target-changes"
    /// Each class's plan (compacted; key = class id), a table like the profiles.
    public var classPlans = "class-plans"
    /// Each class's results per local day (compacted; key = `<class>@<day>`).
    public var classSummaries = "class-summaries"
    /// The class stage's repartition topic: finished workouts with a class, keyed by class and day.
    public var classWorkouts: String
    /// The class table's state per partition of ``classWorkouts`` (compacted, same count).
    public var classChangelog: String

    /// The default names, internal topics named for `application` (`<application>-changelog`,
    /// `<application>-person-workouts`, ...). The default application, `zonestream`, gives the
    /// names ZoneStream has always used, so a deployment on the default group keeps its state.
    public init(application: String = "zonestream") {
        changelog = "\(application)-changelog"
        personWorkouts = "\(application)-person-workouts"
        personChangelog = "\(application)-person-changelog"
        classWorkouts = "\(application)-class-workouts"
        classChangelog = "\(application)-class-changelog"
    }

    /// Why `groupID` would give this application a name that is another application's: a
    /// group id ending in `-person` or `-class` names its session changelog as the person or
    /// class changelog of the group without that ending (`gym-class` and `gym` would both
    /// write `gym-class-changelog`), unless `changelogNamed` (`topics.changelog` set); one
    /// ending in `.people` or `.classes` is the consumer group of another group's stage. Nil
    /// when none. Refused at start, before anything is read or written.
    public static func collision(groupID: String, changelogNamed: Bool) -> String? {
        for (suffix, stage) in [("-person", "person"), ("-class", "class")]
        where !changelogNamed && groupID.hasSuffix(suffix) && groupID.count > suffix.count {
            let other = String(groupID.dropLast(suffix.count))
            return
                "group_id '\(groupID)' ends in '\(suffix)': its changelog '\(groupID)-changelog' would be the \(stage) stage's changelog of group_id '\(other)'. Choose a group_id without that ending, or name this application's internal topics yourself (topics.changelog and the others)"
        }
        for role in ["people", "classes"] where groupID.hasSuffix("." + role) && groupID.count > role.count + 1 {
            let other = String(groupID.dropLast(role.count + 1))
            return
                "group_id '\(groupID)' ends in '.\(role)': it is the consumer group of the \(role) stage of group_id '\(other)'. Choose a group_id without that ending"
        }
        return nil
    }

    /// The topics holding one application's own state: changelogs and repartition topics.
    public var internalTopics: [String] { [changelog, personWorkouts, personChangelog, classWorkouts, classChangelog] }

    /// The changelogs, each keeping the state of one stage.
    public var changelogs: [String] { [changelog, personChangelog, classChangelog] }

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

    /// Every topic as it is created on a real cluster, tables and changelogs compacted. Each
    /// internal topic takes the partitions of the topic whose state it keeps when that one
    /// exists (`existing`: partition counts by topic), as Kafka Streams sizes its internal
    /// topics from their source: a changelog must match it, and the repartition topics keep
    /// the input's parallelism. Every other topic gets `partitions`.
    public func specifications(partitions: Int, replicationFactor: Int = -1, existing: [String: Int] = [:])
        -> [TopicAdmin.Specification]
    {
        let input = existing[workoutEvents] ?? partitions
        // Built from pairs, not a literal: two settings naming one topic must not trap.
        let sources = Dictionary(
            [
                (changelog, input), (personWorkouts, input), (classWorkouts, input),
                (personChangelog, existing[personWorkouts] ?? input),
                (classChangelog, existing[classWorkouts] ?? input),
            ], uniquingKeysWith: { first, _ in first })
        return all.map { name in
            TopicAdmin.Specification(
                name: name, partitions: sources[name] ?? partitions, replicationFactor: replicationFactor,
                configs: compacted.contains(name) ? ["cleanup.policy": "compact"] : [:])
        }
    }
}

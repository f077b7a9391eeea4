import ZoneKafka
import ZoneProcessor

/// The configuration of one processor run of the benchmark, made in one step so that no run
/// shares another's consumer group or changelog: a run that restored another's state would
/// skip the records that state says were applied, and finish early.
struct BenchProcessorRun {
    let configuration: ProcessorConfiguration

    /// `base` with `topics` for its inputs and outputs, its own `group`, and state topics of
    /// its own named after the group (``stateTopics(group:changelogPrefix:)``, set after the
    /// topics, which would otherwise replace them), with live views on or off.
    init(base: ProcessorConfiguration, topics: Topics, group: String, changelogPrefix: String, liveViews: Bool) {
        var configuration = base
        configuration.topics = topics
        configuration.groupID = group
        let state = Self.stateTopics(group: group, changelogPrefix: changelogPrefix)
        configuration.topics.changelog = state.changelog
        configuration.topics.personWorkouts = state.personWorkouts
        configuration.topics.personChangelog = state.personChangelog
        configuration.topics.personSummaries = state.personSummaries
        configuration.topics.classWorkouts = state.classWorkouts
        configuration.topics.classChangelog = state.classChangelog
        configuration.topics.classSummaries = state.classSummaries
        configuration.publishesLiveSessions = liveViews
        self.configuration = configuration
    }

    /// A run's own state topics: the session changelog, the person stage's repartition topic
    /// and changelog (a person stage reading another run's would count its workouts again
    /// while this run is measured), and `person-summaries`, which the `/people` view reads
    /// whole at its start: shared, it grew with every run before (the embedded broker does not
    /// compact), and each later run read more of it while it was measured. The class stage's
    /// the same way.
    static func stateTopics(group: String, changelogPrefix: String) -> StateTopics {
        let base = changelogPrefix + group
        return StateTopics(
            changelog: base, personWorkouts: base + "-person-workouts", personChangelog: base + "-person-changelog",
            personSummaries: base + "-person-summaries", classWorkouts: base + "-class-workouts",
            classChangelog: base + "-class-changelog", classSummaries: base + "-class-summaries")
    }

    struct StateTopics {
        let changelog, personWorkouts, personChangelog, personSummaries, classWorkouts, classChangelog,
            classSummaries: String

        var all: [String] {
            [
                changelog, personWorkouts, personChangelog, personSummaries, classWorkouts, classChangelog,
                classSummaries,
            ]
        }
    }

    /// The state topics of every run in `groups`, for the cluster to create up front.
    static func specifications(groups: [String], changelogPrefix: String, partitions: Int) -> [TopicAdmin.Specification]
    {
        groups.flatMap { group -> [TopicAdmin.Specification] in
            let state = stateTopics(group: group, changelogPrefix: changelogPrefix)
            // The changelogs and summaries compacted, as the processor's layout check wants them.
            let compacted =
                [state.changelog, state.personChangelog, state.personSummaries, state.classChangelog]
                + [state.classSummaries]
            return state.all.map { name in
                TopicAdmin.Specification(
                    name: name, partitions: partitions, replicationFactor: 1,
                    configs: compacted.contains(name) ? ["cleanup.policy": "compact"] : [:])
            }
        }
    }
}

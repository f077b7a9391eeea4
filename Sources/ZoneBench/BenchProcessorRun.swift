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
        configuration.publishesLiveSessions = liveViews
        self.configuration = configuration
    }

    /// A run's own state topics: the session changelog, the person stage's repartition topic
    /// and changelog (a person stage reading another run's would count its workouts again
    /// while this run is measured), and `person-summaries`, which the `/people` view reads
    /// whole at its start: shared, it grew with every run before (the embedded broker does not
    /// compact), and each later run read more of it while it was measured.
    static func stateTopics(group: String, changelogPrefix: String)
        -> (changelog: String, personWorkouts: String, personChangelog: String, personSummaries: String)
    {
        let base = changelogPrefix + group
        return (base, base + "-person-workouts", base + "-person-changelog", base + "-person-summaries")
    }

    /// The state topics of every run in `groups`, for the cluster to create up front.
    static func specifications(groups: [String], changelogPrefix: String, partitions: Int) -> [TopicAdmin.Specification]
    {
        groups.flatMap { group -> [TopicAdmin.Specification] in
            let state = stateTopics(group: group, changelogPrefix: changelogPrefix)
            return [state.changelog, state.personWorkouts, state.personChangelog, state.personSummaries].map {
                TopicAdmin.Specification(name: $0, partitions: partitions, replicationFactor: 1)
            }
        }
    }
}

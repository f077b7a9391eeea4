import ZoneProcessor

/// The configuration of one processor run of the benchmark, made in one step so that no run
/// shares another's consumer group or changelog: a run that restored another's state would
/// skip the records that state says were applied, and finish early.
struct BenchProcessorRun {
    let configuration: ProcessorConfiguration

    /// `base` with `topics` for its inputs and outputs, its own `group`, the changelog
    /// `changelogPrefix` + `group` (set after the topics, which would otherwise replace it),
    /// and live views on or off.
    init(base: ProcessorConfiguration, topics: Topics, group: String, changelogPrefix: String, liveViews: Bool) {
        self.init(base: base, topics: topics, group: group, changelog: changelogPrefix + group, liveViews: liveViews)
    }

    /// The same with the changelog named in full.
    init(base: ProcessorConfiguration, topics: Topics, group: String, changelog: String, liveViews: Bool) {
        var configuration = base
        configuration.topics = topics
        configuration.groupID = group
        configuration.topics.changelog = changelog
        configuration.publishesLiveSessions = liveViews
        self.configuration = configuration
    }
}

import ZoneKafka
import ZoneProcessor

/// Every topic one `zonestream bench` run uses. On the embedded broker the names are fixed;
/// on a user's cluster each starts with a prefix of the run's start time, so runs never read
/// each other's records (and the contract's own topic names are never written).
struct BenchTopics {
    /// The synthetic traffic's topics.
    var synthetic: Topics
    /// The latency run's: fresh ones (the mock's cost per fetch grows with what a partition
    /// holds), with their own partition count.
    var latency: Topics
    /// ZoneStream's latency run at the peers' rate (with `--peer`).
    var latencyAtPeerRate: Topics
    /// The load generator's gym traffic.
    var gym: Topics
    /// The gym traffic's coaches' class plans, apart from `gym.classPlans` (left empty), so
    /// that a run reads them only when told to (`bench builds --class-plans-for`).
    var gymCoachedClassPlans: String
    var floorOutput: String
    var latencyFloor: (input: String, output: String)
    var peerOutput: String
    var memoryInput: String
    /// Each processor run's state topics start with this (``BenchProcessorRun``).
    var changelogPrefix: String
    /// What every name starts with.
    let prefix: String

    /// `prefix`: empty on the embedded broker, `bench-<time>-` on a cluster.
    init(prefix: String) {
        self.prefix = prefix
        synthetic = Self.topics(prefix: prefix)
        latencyAtPeerRate = Self.topics(prefix: prefix + "bench-latency-peer-rate-")
        latency = Self.topics(prefix: prefix + LatencyRun.topicPrefix)
        gym = Self.topics(prefix: prefix.isEmpty ? "bench-gym-" : prefix + "gym-")
        gymCoachedClassPlans = (prefix.isEmpty ? "bench-gym-" : prefix + "gym-") + "coached-class-plans"
        floorOutput = prefix + "bench-floor-out"
        latencyFloor = (prefix + LatencyFloor.inputTopic, prefix + LatencyFloor.outputTopic)
        peerOutput = prefix + "bench-peer-out"
        memoryInput = prefix + SessionMemory.inputTopic
        changelogPrefix = prefix + "bench-changelog-"
    }

    /// Every topic to create: `partitions` each, the latency run's `latencyPartitions`; the
    /// state topics of every processor run in `groups` (and the latency run's).
    func specifications(partitions: Int, latencyPartitions: Int, groups: [String]) -> [TopicAdmin.Specification] {
        func plain(_ names: [String], _ count: Int) -> [TopicAdmin.Specification] {
            names.map { TopicAdmin.Specification(name: $0, partitions: count, replicationFactor: 1) }
        }
        return synthetic.specifications(partitions: partitions) + gym.specifications(partitions: partitions)
            + latency.specifications(partitions: latencyPartitions)
            + plain([floorOutput, peerOutput, memoryInput], partitions)
            + BenchProcessorRun.specifications(groups: groups, changelogPrefix: changelogPrefix, partitions: partitions)
            + BenchProcessorRun.specifications(
                groups: [LatencyRun.group], changelogPrefix: changelogPrefix, partitions: latencyPartitions)
            + plain([latencyFloor.input, latencyFloor.output], latencyPartitions)
    }

    /// The gym's contract topics and its coached class plans, `partitions` each (the plans
    /// compacted, as `class-plans` is).
    func gymSpecifications(partitions: Int) -> [TopicAdmin.Specification] {
        var coached = gym
        coached.classPlans = gymCoachedClassPlans
        return gym.specifications(partitions: partitions)
            + coached.specifications(partitions: partitions).filter { $0.name == gymCoachedClassPlans }
    }

    /// The consumer group of ZoneStream's latency run at the peers' rate.
    static let peerRateGroup = "bench-latency-peer-rate"

    /// The topics of the latency runs at the peers' rate: ZoneStream's, with its state
    /// topics, and each peer's input and output; `partitions` each.
    func peerLatencySpecifications(peers: [String], partitions: Int) -> [TopicAdmin.Specification] {
        guard !peers.isEmpty else { return [] }
        let peerTopics = peers.flatMap { peer -> [String] in
            let topics = PeerLatency.topics(of: peer, prefix: prefix)
            return [topics.input, topics.output]
        }
        return latencyAtPeerRate.specifications(partitions: partitions)
            + BenchProcessorRun.specifications(
                groups: [Self.peerRateGroup], changelogPrefix: changelogPrefix, partitions: partitions)
            + peerTopics.map { TopicAdmin.Specification(name: $0, partitions: partitions, replicationFactor: 1) }
    }

    /// The contract's topics, each name with `prefix` before it.
    static func topics(prefix: String) -> Topics {
        var topics = Topics()
        topics.workoutEvents = prefix + topics.workoutEvents
        topics.zoneProfiles = prefix + topics.zoneProfiles
        topics.zoneChanges = prefix + topics.zoneChanges
        topics.workoutsFinished = prefix + topics.workoutsFinished
        topics.deadLetters = prefix + topics.deadLetters
        topics.changelog = prefix + topics.changelog
        topics.personSummaries = prefix + topics.personSummaries
        topics.personWorkouts = prefix + topics.personWorkouts
        topics.personChangelog = prefix + topics.personChangelog
        topics.targetChanges = prefix + topics.targetChanges
        topics.classPlans = prefix + topics.classPlans
        topics.classSummaries = prefix + topics.classSummaries
        topics.classWorkouts = prefix + topics.classWorkouts
        topics.classChangelog = prefix + topics.classChangelog
        return topics
    }
}

import Foundation
import ZoneHarness
import ZoneKafka
import ZoneProcessor

/// Where a benchmark's records go: a Kafka cluster the user named (`--bootstrap-servers`), on
/// which the benchmark's topics are created, or an embedded mock cluster in a child
/// `zonestream broker` process, started with them (the mock answers no CreateTopics).
struct BenchCluster {
    let bootstrapServers: String
    /// The embedded cluster's process; nil on a user's cluster.
    private let embedded: BrokerProcess?

    /// - Parameters:
    ///   - topics: every topic the benchmark uses. The embedded broker creates the contract's
    ///     own (unprefixed) topics by itself, with `defaultPartitions` each.
    ///   - brokers: brokers of the embedded cluster.
    init(
        bootstrapServers: String?, topics: [TopicAdmin.Specification], defaultPartitions: Int, brokers: Int,
        executable: URL
    ) throws {
        if let bootstrapServers {
            let admin = try KafkaProducer(
                configuration: KafkaConfiguration(
                    bootstrapServers: bootstrapServers, clientID: "zonestream-bench-admin"))
            try TopicAdmin.createMissing(topics, using: admin)
            self.bootstrapServers = bootstrapServers
            embedded = nil
        } else {
            let contractTopics = Set(Topics().all)
            let extraTopics = topics.filter { !contractTopics.contains($0.name) }.map {
                $0.partitions == defaultPartitions ? $0.name : "\($0.name):\($0.partitions)"
            }
            let broker = try BrokerProcess(
                partitions: defaultPartitions,
                extraArguments: ["--extra-topics", extraTopics.joined(separator: ","), "--brokers", "\(brokers)"],
                executable: executable)
            self.bootstrapServers = broker.bootstrapServers
            embedded = broker
        }
    }

    /// The embedded cluster's process id; nil on a user's cluster.
    var brokerPID: Int32? { embedded?.pid }

    /// Whether the benchmark runs on its own embedded cluster.
    var isEmbedded: Bool { embedded != nil }

    /// Stops the embedded broker, if there is one.
    func stop() { embedded?.stop() }
}

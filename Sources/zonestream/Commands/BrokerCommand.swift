import ArgumentParser
import Foundation
import ZoneKafka

/// `zonestream broker`: a standalone embedded Kafka (librdkafka's mock cluster) with the
/// contract's topics, on loopback, until stopped.
struct BrokerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broker", abstract: "Run an embedded Kafka-protocol broker with ZoneStream's topics.")

    @Option(help: "Partitions per topic.")
    var partitions = 8

    @Option(help: "Number of mock brokers in the cluster.")
    var brokers = 1

    @Option(help: "Also write the bootstrap address to this file (for scripts and tests).")
    var bootstrapFile: String?

    @Option(help: "Extra topics to create (comma-separated).")
    var extraTopics: String?

    func run() throws {
        let cluster = try EmbeddedBroker.start(brokers: brokers, partitions: partitions,
            extraTopics: extraTopics?.split(separator: ",").map(String.init) ?? [])
        FileHandle.standardOutput.write(Data((cluster.bootstrapServers + "\n").utf8))
        if let bootstrapFile {
            try (cluster.bootstrapServers + "\n").write(toFile: bootstrapFile, atomically: true, encoding: .utf8)
        }
        let stopped = DispatchSemaphore(value: 0)
        TerminationSignals.onTermination { stopped.signal() }
        Self.readControlLines(cluster: cluster)
        stopped.wait()
        withExtendedLifetime(cluster) {}
    }
}

extension BrokerCommand {
    /// Failure injection for tests: lines `down N` and `up N` on standard input take mock
    /// broker N down or bring it back. Reading stops at the end of input.
    static func readControlLines(cluster: MockCluster) {
        let thread = Thread {
            while let line = readLine() {
                let words = line.split(separator: " ")
                guard words.count == 2, let id = Int32(words[1]), words[0] == "up" || words[0] == "down" else {
                    FileHandle.standardError.write(Data("broker: unknown control line '\(line)'\n".utf8))
                    continue
                }
                do {
                    try cluster.setBroker(id, up: words[0] == "up")
                    FileHandle.standardError.write(Data("broker: \(id) \(words[0])\n".utf8))
                } catch {
                    FileHandle.standardError.write(Data("broker: \(error)\n".utf8))
                }
            }
        }
        thread.name = "zs-broker-control"
        thread.start()
    }
}

/// Starts a mock cluster with every topic of the contract.
enum EmbeddedBroker {
    static let topics = ["workout-events", "zone-profiles", "zone-changes", "workouts-finished", "zonestream-dlq", "zonestream-changelog"]

    static func start(brokers: Int, partitions: Int, extraTopics: [String] = []) throws -> MockCluster {
        let cluster = try MockCluster(brokers: brokers)
        for topic in topics + extraTopics { try cluster.createTopic(topic, partitions: partitions) }
        return cluster
    }
}

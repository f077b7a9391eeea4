import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import ZoneKafka
import ZoneProcessor

/// `zonestream broker`: a standalone embedded Kafka (librdkafka's mock cluster) with the
/// contract's topics, on loopback, until stopped.
struct BrokerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broker", abstract: "Run an embedded Kafka-protocol broker with ZoneStream's topics.")

    @Option(help: "Partitions per topic.")
    var partitions = 8

    @Option(help: "Number of mock brokers in the cluster.")
    var brokers = 1

    @Option(help: "Also write the bootstrap address to this file (for scripts and tests).")
    var bootstrapFile: String?

    @Option(help: "Extra topics to create (comma-separated), each NAME or NAME:PARTITIONS (default --partitions).")
    var extraTopics: String?

    @Option(
        help:
            "Groups (group_id) whose internal topics to create besides the default group's (comma-separated): the embedded broker cannot create topics when asked."
    )
    var applications: String?

    func validate() throws {
        try Self.validate(brokers: brokers)
        guard partitions >= 1 else { throw ValidationError("--partitions must be at least 1") }
        _ = try Self.extraTopics(extraTopics, partitions: partitions)
    }

    /// `NAME[:PARTITIONS],...` as names and partition counts; refuses an empty name or a
    /// count outside 1...1024.
    static func extraTopics(_ text: String?, partitions: Int) throws -> [(name: String, partitions: Int)] {
        try (text ?? "").split(separator: ",").map { item in
            let parts = item.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard !parts[0].isEmpty else { throw ValidationError("--extra-topics '\(item)': the topic has no name") }
            guard parts.count == 2 else { return (parts[0], partitions) }
            guard let count = Int(parts[1]), (1...1024).contains(count) else {
                throw ValidationError("--extra-topics '\(item)': partitions must be a whole number in 1...1024")
            }
            return (parts[0], count)
        }
    }

    /// The one check of a `--brokers` option (`broker`, `bench`, `bench latency`).
    static func validate(brokers: Int) throws {
        try requireOption("--brokers", brokers, in: 1...16)
    }

    func run() async throws {
        let groups = (applications ?? "").split(separator: ",").map { String($0) }
        let cluster = try EmbeddedBroker.start(
            brokers: brokers, partitions: partitions,
            topics: [Topics()] + groups.map { Topics(application: $0) },
            extraTopics: try Self.extraTopics(extraTopics, partitions: partitions))
        FileHandle.standardOutput.write(Data((cluster.bootstrapServers + "\n").utf8))
        if let bootstrapFile {
            try (cluster.bootstrapServers + "\n").write(toFile: bootstrapFile, atomically: true, encoding: .utf8)
        }
        Self.readControlLines(cluster: cluster)
        // SIGTERM or SIGINT ends the group, and with it the broker.
        let group = ServiceGroup(
            services: [EmbeddedBrokerService(cluster: cluster)], gracefulShutdownSignals: [.sigterm, .sigint],
            logger: Logger(label: "zonestream-broker"))
        try await group.run()
    }
}

/// Keeps the embedded broker up until the service group shuts down.
struct EmbeddedBrokerService: Service {
    let cluster: MockCluster

    func run() async throws {
        try? await gracefulShutdown()
        withExtendedLifetime(cluster) {}
    }
}

extension BrokerCommand {
    /// Failure injection for tests, as lines on standard input (reading stops at its end):
    /// - `down N`, `up N`: take mock broker N down (connections closed) or bring it back;
    /// - `leader TOPIC N PARTITIONS`: broker N leads partitions 0..<PARTITIONS of TOPIC;
    /// - `errors N APIKEY COUNT CODE [RTT_MS]`: the next COUNT requests of that API key (0:
    ///   Produce) reaching broker N fail with broker error CODE.
    /// Each line is answered on standard error with `broker: ok <line>` or the error. The
    /// reading thread blocks on standard input for the life of the process and is not joined.
    static func readControlLines(cluster: MockCluster) {
        let thread = Thread {
            while let line = readLine() {
                do {
                    try apply(line.split(separator: " ").map(String.init), to: cluster)
                    FileHandle.standardError.write(Data("broker: ok \(line)\n".utf8))
                } catch {
                    FileHandle.standardError.write(Data("broker: \(line): \(error)\n".utf8))
                }
            }
        }
        thread.name = "zs-broker-control"
        thread.start()
    }

    private static func apply(_ words: [String], to cluster: MockCluster) throws {
        func number(_ index: Int) throws -> Int32 {
            guard index < words.count, let value = Int32(words[index]) else {
                throw ValidationError("expected a number at word \(index + 1)")
            }
            return value
        }
        switch words.first {
        case "up", "down":
            try cluster.setBroker(try number(1), up: words[0] == "up")
        case "leader" where words.count == 4:
            for partition in 0..<(try number(3)) {
                try cluster.setLeader(topic: words[1], partition: partition, broker: try number(2))
            }
        case "errors" where words.count >= 5:
            try cluster.failNextRequests(
                broker: try number(1), apiKey: Int16(try number(2)), count: Int(try number(3)), error: try number(4),
                rttMs: words.count > 5 ? try number(5) : 0)
        default:
            throw ValidationError("unknown control line")
        }
    }
}

/// Starts a mock cluster with every topic of the contract.
enum EmbeddedBroker {
    /// Starts the broker with the topics of each of `topics` (by default the contract's and
    /// the default group's own), `partitions` each, and `extraTopics`.
    static func start(
        brokers: Int, partitions: Int, topics: [Topics] = [Topics()],
        extraTopics: [(name: String, partitions: Int)] = []
    ) throws -> MockCluster {
        let cluster = try MockCluster(brokers: brokers)
        for topic in Set(topics.flatMap(\.all)) { try cluster.createTopic(topic, partitions: partitions) }
        for topic in extraTopics { try cluster.createTopic(topic.name, partitions: topic.partitions) }
        return cluster
    }
}

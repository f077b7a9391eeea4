public import ArgumentParser
import Foundation
public import ZoneBench

/// `--traffic spread|burst` (`bench latency`) and `--latency-traffic` (`bench`).
extension LatencyTraffic: ExpressibleByArgument {}

/// `--clients both|zonestream|floor` (`bench latency`).
extension LatencyClients: ExpressibleByArgument {}

/// `zonestream bench latency`: the latency measurement alone (``LatencyBenchmark``), with
/// librdkafka properties for ZoneStream's clients to try a change of a wait before it
/// becomes a default.
struct LatencyBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract:
            "Measure sample-to-zone-change latency alone, at a fixed rate, on an embedded broker or a Kafka cluster.")

    @Option(help: "Samples per second.") var rate = 100_000
    @Option(help: "Length of each run in seconds.") var seconds = 10
    @Option(help: "Runs, each with a fresh processor and topics of its own.") var runs = 1
    @Option(help: "Partitions of each topic.") var topicPartitions = Benchmark.defaultLatencyPartitions
    @Option(help: "ZoneStream worker threads.") var workerThreads = 2
    @Option(help: "Brokers of the embedded cluster.") var brokers = 3
    @Option(
        help:
            "When the sessions cross zones: spread (each at its own moment, as in a class) or burst (all in the same 10 ms, every 100 ms)."
    )
    var traffic = LatencyTraffic.spread
    @Option(help: "ZoneStream's commit_interval_ms (how often a worker seals an epoch and writes its changelog).")
    var commitIntervalMs = 1000
    @Option(
        help:
            "What each run measures: both (ZoneStream and the floor, alternated), zonestream or floor (each then alone on its broker)."
    )
    var clients = LatencyClients.both
    @Option(
        help:
            "Bytes the floor pads its outputs to when it runs without ZoneStream (ZoneStream's mean zone change, which its run prints); needed with --clients floor."
    )
    var floorOutputBytes: Int?
    /// `bench`'s own `--bootstrap-servers` (it may follow `latency` too): the runs then create
    /// topics of their own on that cluster instead of starting an embedded mock. Its `--peer`:
    /// each run measures those peer stream processors instead of ZoneStream and the floor.
    @ParentCommand var bench: BenchCommand
    @Option(
        name: .customLong("kafka-property"),
        help: "KEY=VALUE: a librdkafka property for ZoneStream's clients (repeatable).")
    var kafkaProperties: [String] = []

    func validate() throws {
        try requireOption("--rate", rate, in: 1...10_000_000)
        try requireOption("--seconds", seconds, in: 1...3600)
        try requireOption("--runs", runs, in: 1...20)
        try requireOption("--topic-partitions", topicPartitions, in: 1...64)
        try requireOption("--worker-threads", workerThreads, in: 1...64)
        try BrokerCommand.validate(brokers: brokers)
        try requireOption("--commit-interval-ms", commitIntervalMs, in: 10...600_000)
        if let floorOutputBytes { try requireOption("--floor-output-bytes", floorOutputBytes, in: 1...1_000_000) }
        if clients == .floor && floorOutputBytes == nil {
            throw ValidationError(
                "--clients floor needs --floor-output-bytes (the size of ZoneStream's zone changes, which its run prints)"
            )
        }
        for property in kafkaProperties where !property.contains("=") {
            throw ValidationError("--kafka-property '\(property)': expected KEY=VALUE")
        }
    }

    func run() throws {
        let logger = Logs.bootstrap(level: "warning")
        var properties: [String: String] = [:]
        for property in kafkaProperties {
            let parts = property.split(separator: "=", maxSplits: 1).map(String.init)
            properties[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        var benchmark = LatencyBenchmark(
            rate: rate, seconds: seconds, partitions: topicPartitions, workers: workerThreads, runs: runs,
            kafkaProperties: properties)
        benchmark.commitIntervalMs = commitIntervalMs
        benchmark.brokers = brokers
        benchmark.bootstrapServers = bench.bootstrapServers
        benchmark.clients = clients
        benchmark.floorOutputBytes = floorOutputBytes
        benchmark.traffic = traffic
        benchmark.peers = bench.peers
        _ = try benchmark.run(logger: logger)
    }
}

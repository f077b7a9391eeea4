import ArgumentParser
import ZoneBench

/// `zonestream bench`: sizes ZoneStream on this machine against the limit of the hardware,
/// in one run on an embedded broker (a child `zonestream broker` process, so its memory is
/// not counted as ZoneStream's), or on a Kafka cluster given by `--bootstrap-servers`.
/// The work is ``Benchmark``'s (the ZoneBench target); this only reads the options.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure throughput against a bare consumer, latency and memory per session.",
        subcommands: [
            BoardBenchCommand.self, BuildsBenchCommand.self, FailoverBenchCommand.self, LatencyBenchCommand.self,
            MemoryBenchCommand.self, PlotBenchCommand.self,
        ])

    @Option(help: "Records preloaded for the throughput runs.") var records = 4_000_000
    @Option(help: "Partitions of workout-events (each mock partition keeps about 5 MB).") var partitions = 32
    @Option(help: "Brokers of the embedded cluster (a client reads each broker on a thread of its own).") var brokers =
        3
    @Option(help: "ZoneStream worker threads.") var workers = 2
    @Option(help: "Sample rate of the latency run.") var latencyRate = 100_000
    @Option(help: "Length of the latency run in seconds.") var latencySeconds = 10
    @Option(
        help:
            "When the latency run's sessions cross zones: spread (each at its own moment, as in a class) or burst (all in the same 10 ms, every 100 ms)."
    )
    var latencyTraffic = LatencyTraffic.spread
    @Option(
        help:
            "Partitions of the latency run's topics (the mock broker's cost per fetch grows with partitions; benchmarks/README.md)."
    )
    var latencyPartitions = Benchmark.defaultLatencyPartitions
    @Option(help: "Where to write bench.json and bench.svg.") var output = "benchmarks/results"
    @Flag(help: "A small, quick run (for CI): checks the benchmark works, measures nothing meaningful.") var smoke =
        false
    @Option(
        help: """
            Benchmark on this Kafka cluster instead of an embedded broker. The run creates its own \
            topics (bench-<time>-<contract name>) and leaves them.
            """)
    var bootstrapServers: String?
    @Option(
        name: .customLong("peer"),
        help: """
            Also run this peer over the same gym traffic, in rounds, and report ZoneStream / peer \
            (repeat for several): quixstreams, bytewax, faust (faust on a cluster only: it creates topics).
            """)
    var peers: [String] = []
    @Option(help: "With --peer: the fixed sample rate at which ZoneStream's and each peer's latency are measured.")
    var peerLatencyRate = 10_000
    @Option(help: "With --peer: the length of each of those latency runs in seconds.") var peerLatencySeconds = 60

    func validate() throws {
        try requireOption("--records", records, in: 1...100_000_000)
        try requireOption("--partitions", partitions, in: 1...64)
        try requireOption("--workers", workers, in: 1...64)
        try requireOption("--latency-rate", latencyRate, in: 1...10_000_000)
        try requireOption("--latency-seconds", latencySeconds, in: 1...3600)
        try requireOption("--latency-partitions", latencyPartitions, in: 1...64)
        try requireOption("--peer-latency-rate", peerLatencyRate, in: 1...1_000_000)
        try requireOption("--peer-latency-seconds", peerLatencySeconds, in: 1...3600)
        try BrokerCommand.validate(brokers: brokers)
        for peer in peers where !Benchmark.knownPeers.contains(peer) {
            throw ValidationError(
                "--peer: unknown peer '\(peer)' (known: \(Benchmark.knownPeers.joined(separator: ", ")))")
        }
    }

    func run() throws {
        let logger = Logs.bootstrap(level: "warning")
        var benchmark = Benchmark(
            records: records, partitions: partitions, brokers: brokers, workers: workers, latencyRate: latencyRate,
            latencySeconds: latencySeconds, output: output, smoke: smoke, bootstrapServers: bootstrapServers,
            peers: peers
        )
        benchmark.latencyTraffic = latencyTraffic
        benchmark.latencyPartitions = latencyPartitions
        benchmark.peerLatencyRate = peerLatencyRate
        benchmark.peerLatencySeconds = peerLatencySeconds
        try benchmark.run(logger: logger)
    }
}

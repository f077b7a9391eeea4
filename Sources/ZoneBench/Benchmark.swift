public import Foundation
public import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneHarness
import ZoneKafka
import ZoneProcessor
import ZoneSimulation

/// One run of `zonestream bench`: preloads the records, measures the bare consumer, ZoneStream
/// on synthetic and on the load generator's gym traffic (with the Kafka I/O floor and, on
/// request, a peer), latency at a fixed rate and memory per live session, and writes
/// bench.json and bench.svg. See benchmarks/README.md for what each figure means.
public struct Benchmark: Sendable {
    /// Records preloaded for the throughput runs.
    public var records: Int
    /// Partitions of the input topics (each mock partition keeps about 5 MB).
    public var partitions: Int
    /// Brokers of the embedded cluster. A client fetches from each broker on a thread of its
    /// own, so with one broker every consumer (the bare one too) reads on a single thread.
    public var brokers: Int
    public var workers: Int
    /// Samples per second of the latency run, and its length.
    public var latencyRate: Int
    public var latencySeconds: Int
    /// When the latency run's sessions cross zones (``LatencyTraffic``).
    public var latencyTraffic = LatencyTraffic.spread
    /// Partitions of the latency runs' topics.
    public var latencyPartitions = Benchmark.defaultLatencyPartitions

    /// The latency runs' partitions unless told otherwise (``LatencyRun/defaultPartitions``).
    public static var defaultLatencyPartitions: Int { LatencyRun.defaultPartitions }
    /// Where bench.json and bench.svg go.
    public var output: String
    /// A small, quick run that checks the benchmark works and measures nothing meaningful.
    public var smoke: Bool
    /// A Kafka cluster to run on instead of an embedded broker.
    public var bootstrapServers: String?
    /// Peers run over the same gym traffic (``knownPeers``), in the same measurement.
    public var peers: [String]
    /// With peers: the fixed rate (samples/s) and length of the latency runs that compare
    /// them with ZoneStream, a rate every peer sustains.
    public var peerLatencyRate = 10_000
    public var peerLatencySeconds = 60
    /// The `zonestream` executable, started as the embedded broker.
    public var executable: URL

    /// The peers `peers` may name.
    public static var knownPeers: [String] { PeerRun.known.map(\.name) }

    /// Draws peers.svg from the peers.json in `directory`, as `bench --peer` writes both.
    public static func drawPeersPlot(in directory: String) throws { try PeersReport.redrawPlot(in: directory) }

    public init(
        records: Int, partitions: Int, brokers: Int = 3, workers: Int, latencyRate: Int, latencySeconds: Int,
        output: String,
        smoke: Bool, bootstrapServers: String?, peers: [String] = [],
        executable: URL = URL(fileURLWithPath: CommandLine.arguments[0])
    ) {
        self.records = records
        self.partitions = partitions
        self.brokers = brokers
        self.workers = workers
        self.latencyRate = latencyRate
        self.latencySeconds = latencySeconds
        self.output = output
        self.smoke = smoke
        self.bootstrapServers = bootstrapServers
        self.peers = peers
        self.executable = executable
    }

    /// Runs every measurement, prints each figure as it comes and writes the results.
    public func run(logger: Logger) throws {
        let records = smoke ? 20_000 : records
        let names = BenchTopics(prefix: bootstrapServers == nil ? "" : "bench-\(Int(Date().timeIntervalSince1970))-")
        let cluster = try BenchCluster(
            bootstrapServers: bootstrapServers,
            topics: names.specifications(
                partitions: partitions, latencyPartitions: latencyPartitions, groups: Self.groups)
                + names.peerLatencySpecifications(peers: peers, partitions: latencyPartitions),
            defaultPartitions: partitions, brokers: brokers, executable: executable)
        defer { cluster.stop() }
        let kafka = KafkaConfiguration(bootstrapServers: cluster.bootstrapServers, clientID: "zonestream-bench")
        // The paced runs' producer lingers as ZoneStream's does; the preload's lingers long, so
        // the records lie in full batches whatever the traffic (a consumer's cost is largely per
        // batch: with 5 ms the gym preload's batches were small and the bare consumer read 0.4
        // instead of 1 M records/s).
        let producer = try KafkaProducer(configuration: kafka)
        let preloadProducer = try KafkaProducer(configuration: kafka, properties: Self.preloadProducerProperties)
        defer { withExtendedLifetime((producer, preloadProducer)) {} }
        print(
            "bench: broker \(cluster.bootstrapServers)\(cluster.isEmbedded ? " (embedded, \(brokers) brokers)" : ""), \(records) records, \(partitions) partitions, \(workers) workers"
        )

        // 1. Preload: sessions of samples, round-robin, so every partition is busy.
        try Self.preloadSynthetic(records: records, topic: names.synthetic.workoutEvents, producer: preloadProducer)
        try PreloadCheck.requireKept(
            records: records, topic: names.synthetic.workoutEvents, kafka: kafka, logger: logger)

        // 2 and 3. The ceiling (a bare consumer) and ZoneStream end to end, on those records.
        var configuration = ProcessorConfiguration(kafka: kafka)
        configuration.createTopicPartitions = 0  // the topics are made above, or by the embedded broker
        configuration.workers = workers
        let synthetic = try Self.measureSynthetic(
            base: configuration, topics: names.synthetic, changelogPrefix: names.changelogPrefix, records: records,
            logger: logger)

        // The load generator's gym traffic: its mix, the bare consumer, the Kafka I/O floor and
        // ZoneStream with live views on (as `run` has them) and off, on the same records.
        let gym = try GymRun.measure(
            configuration: configuration, topics: names.gym, records: records,
            classSize: smoke ? .small : GymPreload.ClassSize(), floorTopic: names.floorOutput,
            changelogPrefix: names.changelogPrefix, producer: preloadProducer, logger: logger)
        print(gym.summary)
        let peerFigures = try measurePeers(cluster: cluster, names: names, gym: gym)

        // 4. Latency at a fixed rate, and the Kafka path's own.
        let latency = try measureLatency(
            base: configuration, names: names, kafka: kafka, producer: producer, logger: logger)
        // 5. Memory per live session, on a `zonestream run` child (only its memory counted).
        let bytesPerSession = try measureMemory(
            bootstrap: cluster.bootstrapServers, names: names, producer: producer)
        latency.printSummary()
        let peerLatency = try measurePeerLatency(
            base: configuration, cluster: cluster, names: names, kafka: kafka, producer: producer, logger: logger)
        try writeReports(
            report(
                records: records, synthetic: synthetic, gym: gym, peers: peerFigures, latency: latency,
                bytesPerSession: bytesPerSession), gym: gym, peerLatency: peerLatency, cluster: cluster)
    }

    /// ZoneStream's latency at a fixed rate, then the same paced traffic through the Kafka path
    /// alone, its outputs as large as ZoneStream's zone changes were.
    private func measureLatency(
        base: ProcessorConfiguration, names: BenchTopics, kafka: KafkaConfiguration, producer: KafkaProducer,
        logger: Logger
    ) throws -> LatencyFigures {
        let rate = smoke ? 2_000 : latencyRate
        let seconds = smoke ? 2 : latencySeconds
        let run = BenchProcessorRun(
            base: base, topics: names.latency, group: LatencyRun.group, changelogPrefix: names.changelogPrefix,
            liveViews: false)
        let latency = try LatencyRun.measure(
            configuration: run.configuration, benchKafka: kafka, producer: producer, rate: rate, seconds: seconds,
            traffic: latencyTraffic, logger: logger)
        let floor = try LatencyFloor.measure(
            kafka: kafka, benchKafka: kafka, producer: producer, input: names.latencyFloor.input,
            output: names.latencyFloor.output, rate: rate, seconds: seconds, traffic: latencyTraffic,
            outputBytes: latency.meanOutputBytes, logger: logger)
        return LatencyFigures(zoneStream: latency, floor: floor)
    }

    /// Prints the tables and writes bench.json and bench.svg, and with peers peers.json.
    private func writeReports(
        _ report: BenchReport, gym: GymRun.Figures, peerLatency: [PeerLatency.Figures], cluster: BenchCluster
    ) throws {
        print("\n" + report.table + "\n\n" + gym.table + "\n")
        try report.write(to: output)
        guard !peers.isEmpty else { return }
        try PeersReport(bench: report, latency: peerLatency, settings: peerSettings(cluster: cluster)).write(to: output)
    }

    /// Memory per live session at each of two session counts.
    private func measureMemory(bootstrap: String, names: BenchTopics, producer: KafkaProducer) throws -> [Double] {
        let sessionCounts = smoke ? [1_000, 2_000] : [10_000, 100_000]
        let bytesPerSession = try SessionMemory.measure(
            bootstrap: bootstrap, topics: (names.memoryInput, names.changelogPrefix + SessionMemory.group),
            workers: workers, sessionCounts: sessionCounts, producer: producer, executable: executable
        ).perSession
        print("bench: RSS per live session: " + SessionMemory.describe(bytesPerSession, sessionCounts: sessionCounts))
        return bytesPerSession
    }

    private func report(
        records: Int, synthetic: SyntheticFigures, gym: GymRun.Figures, peers: [PeerRun.Figures],
        latency figures: LatencyFigures,
        bytesPerSession: [Double]
    ) -> BenchReport {
        BenchReport(
            broker: bootstrapServers ?? "embedded mock cluster of \(brokers) brokers (a child process)",
            machine:
                "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB",
            records: records, partitions: partitions, workers: workers,
            ceilingRecordsPerSecond: synthetic.ceiling, zoneStreamRecordsPerSecond: synthetic.rate,
            ratio: synthetic.rate / synthetic.ceiling, liveViewsRecordsPerSecond: synthetic.viewsRate,
            latencyTargetSamplesPerSecond: smoke ? 2_000 : latencyRate, latencyPartitions: latencyPartitions,
            latencyTraffic: latencyTraffic.rawValue, latencyAchievedSamplesPerSecond: figures.zoneStreamAchievedRate,
            latencyP50Ms: figures.percentile(0.5), latencyP99Ms: figures.percentile(0.99),
            latencyP999Ms: figures.percentile(0.999), latencyFloorP50Ms: figures.percentile(0.5, of: figures.floor),
            latencyFloorP99Ms: figures.percentile(0.99, of: figures.floor),
            latencyFloorP999Ms: figures.percentile(0.999, of: figures.floor),
            peakRSSBytes: ProcessMemory.residentBytes().peak,
            bytesPerSession10k: bytesPerSession.first ?? 0, bytesPerSession100k: bytesPerSession.last ?? 0,
            throughputOverTime: synthetic.timeline, latencyPercentilesMs: figures.curve(figures.zoneStream),
            latencyFloorPercentilesMs: figures.curve(figures.floor), gym: gym, peers: peers)
    }

    /// The preload's producer: a linger of 100 ms fills batches (up to librdkafka's 1 MB).
    static let preloadProducerProperties = ["linger.ms": "100", "batch.num.messages": "100000"]

    /// The consumer groups of the processor runs, each with its own changelog topic.
    static let groups = ["bench-zonestream", "bench-zonestream-live-views", SessionMemory.group] + GymRun.groups

}

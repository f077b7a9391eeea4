public import Foundation
public import Logging
import NIOConcurrencyHelpers
import Synchronization
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
    /// A peer run over the same gym traffic (``knownPeers``).
    public var peer: String?
    /// The `zonestream` executable, started as the embedded broker.
    public var executable: URL

    /// The peers `peer` may name.
    public static var knownPeers: [String] { PeerRun.known }

    public init(
        records: Int, partitions: Int, brokers: Int = 3, workers: Int, latencyRate: Int, latencySeconds: Int,
        output: String,
        smoke: Bool, bootstrapServers: String?, peer: String?,
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
        self.peer = peer
        self.executable = executable
    }

    /// Runs every measurement, prints each figure as it comes and writes the results.
    public func run(logger: Logger) throws {
        let records = smoke ? 20_000 : records
        let latencyRate = smoke ? 2_000 : latencyRate
        let latencySeconds = smoke ? 2 : latencySeconds
        let sessionCounts = smoke ? [1_000, 2_000] : [10_000, 100_000]
        var topics = Topics()
        // The latency run has topics of its own: fresh ones (the mock's cost per fetch grows
        // with what a partition holds) with ``latencyPartitions`` partitions.
        var latencyTopics = Self.topics(prefix: LatencyRun.topicPrefix)
        var gymTopics = Self.topics(prefix: "bench-gym-")
        var floorTopic = "bench-floor-out"
        var latencyFloorTopics = (input: LatencyFloor.inputTopic, output: LatencyFloor.outputTopic)
        var peerTopic = "bench-peer-out"
        var memoryTopic = SessionMemory.inputTopic
        // Each processor run has a changelog of its own: one restoring another's state would
        // skip the records that state says were applied, and finish early.
        var changelogPrefix = "bench-changelog-"
        if bootstrapServers != nil {
            let prefix = "bench-\(Int(Date().timeIntervalSince1970))-"
            topics = Self.topics(prefix: prefix)
            latencyTopics = Self.topics(prefix: prefix + LatencyRun.topicPrefix)
            gymTopics = Self.topics(prefix: prefix + "gym-")
            floorTopic = prefix + floorTopic
            peerTopic = prefix + peerTopic
            memoryTopic = prefix + memoryTopic
            latencyFloorTopics = (prefix + LatencyFloor.inputTopic, prefix + LatencyFloor.outputTopic)
            changelogPrefix = prefix + changelogPrefix
        }
        let specifications =
            topics.specifications(partitions: partitions) + gymTopics.specifications(partitions: partitions)
            + latencyTopics.specifications(partitions: latencyPartitions)
            + [floorTopic, peerTopic, memoryTopic].map {
                TopicAdmin.Specification(name: $0, partitions: partitions, replicationFactor: 1)
            }
            + BenchProcessorRun.specifications(
                groups: Self.groups, changelogPrefix: changelogPrefix, partitions: partitions)
            + BenchProcessorRun.specifications(
                groups: [LatencyRun.group], changelogPrefix: changelogPrefix, partitions: latencyPartitions)
            + [latencyFloorTopics.input, latencyFloorTopics.output].map {
                TopicAdmin.Specification(name: $0, partitions: latencyPartitions, replicationFactor: 1)
            }
        let cluster = try BenchCluster(
            bootstrapServers: bootstrapServers, topics: specifications, defaultPartitions: partitions, brokers: brokers,
            executable: executable)
        defer { cluster.stop() }
        let bootstrap = cluster.bootstrapServers
        let kafka = KafkaConfiguration(bootstrapServers: bootstrap, clientID: "zonestream-bench")
        // The paced runs' producer lingers as ZoneStream's does; the preload's lingers long, so
        // the records lie in full batches whatever the traffic (a consumer's cost is largely per
        // batch: with 5 ms the gym preload's batches were small and the bare consumer read 0.4
        // instead of 1 M records/s).
        let producer = try KafkaProducer(configuration: kafka)
        let preloadProducer = try KafkaProducer(configuration: kafka, properties: Self.preloadProducerProperties)
        print(
            "bench: broker \(bootstrap)\(cluster.isEmbedded ? " (embedded, \(brokers) brokers)" : ""), \(records) records, \(partitions) partitions, \(workers) workers"
        )

        // 1. Preload: sessions of samples, round-robin, so every partition is busy.
        let sessions = max(1, records / 200)
        var produced = 0
        let preloadStart = Date()
        for step in 0... {
            for index in 0..<sessions where produced < records {
                let id = BenchTraffic.sessionID(index, prefix: "t")
                let ts = 1_717_200_000_000 + Int64(step) * 1000
                let value = step == 0 ? BenchTraffic.start(id, ts: ts) : BenchTraffic.sample(id, ts: ts, step: step)
                try preloadProducer.produce(
                    topic: topics.workoutEvents, key: Array(id.utf8), value: value, tracker: nil)
                produced += 1
            }
            if produced >= records { break }
        }
        try preloadProducer.flush(timeoutMs: 120_000)
        print(String(format: "bench: preloaded in %.1f s", Date().timeIntervalSince(preloadStart)))

        // 2. The ceiling: a bare consumer, batch-consuming the same records, doing nothing.
        let ceiling = try BareConsumer.measure(
            kafka: kafka, topic: topics.workoutEvents, records: records, workers: workers, logger: logger
        ).cost.recordsPerSecond
        print(String(format: "bench: bare consumer %.0f records/s", ceiling))

        // 3. ZoneStream end to end, at-least-once commits on.
        var configuration = ProcessorConfiguration(kafka: kafka)
        configuration.createTopicPartitions = 0  // the topics are made above, or by the embedded broker
        configuration.workers = workers
        let plain = BenchProcessorRun(
            base: configuration, topics: topics, group: "bench-zonestream", changelogPrefix: changelogPrefix,
            liveViews: false)
        let (cost, timeline, _) = try Self.throughput(
            configuration: plain.configuration, records: records, logger: logger)
        let rate = cost.recordsPerSecond
        print(String(format: "bench: ZoneStream %.0f records/s (%.2f of the ceiling)", rate, rate / ceiling))
        let withViews = BenchProcessorRun(
            base: configuration, topics: topics, group: "bench-zonestream-live-views", changelogPrefix: changelogPrefix,
            liveViews: true)
        let viewsRate = try Self.throughput(configuration: withViews.configuration, records: records, logger: logger)
            .cost.recordsPerSecond
        print(String(format: "bench: with live views %.0f records/s (%.2f of without)", viewsRate, viewsRate / rate))

        // The load generator's gym traffic: its mix, the bare consumer, the Kafka I/O floor and
        // ZoneStream with live views on (as `run` has them) and off, on the same records.
        let gym = try GymRun.measure(
            configuration: configuration, topics: gymTopics, records: records,
            classSize: smoke ? .small : GymPreload.ClassSize(), floorTopic: floorTopic,
            changelogPrefix: changelogPrefix, producer: preloadProducer, logger: logger)
        print(gym.summary)
        let peerFigures = try peer.map { name in
            let figures = try PeerRun.measure(
                peer: name, bootstrapServers: bootstrap, input: gymTopics.workoutEvents, output: peerTopic,
                records: gym.mix.records, onMock: cluster.isEmbedded)
            print(
                String(
                    format: "bench: peer %@ %.0f records/s, peak RSS %.0f MB; ZoneStream / %@ = %.1f", name,
                    figures.recordsPerSecond,
                    Double(figures.peakRSSBytes) / 1_048_576, name,
                    gym.zoneStreamRecordsPerSecond / figures.recordsPerSecond))
            return figures
        }

        // 4. Latency at a fixed rate.
        let latencyRun = BenchProcessorRun(
            base: configuration, topics: latencyTopics, group: LatencyRun.group, changelogPrefix: changelogPrefix,
            liveViews: false)
        let latency = try LatencyRun.measure(
            configuration: latencyRun.configuration, benchKafka: kafka, producer: producer, rate: latencyRate,
            seconds: latencySeconds,
            traffic: latencyTraffic, logger: logger)
        // The latency floor: the same paced traffic through the Kafka path alone, its outputs
        // as large as ZoneStream's zone changes were.
        let floorLatency = try LatencyFloor.measure(
            kafka: kafka, benchKafka: kafka, producer: producer, input: latencyFloorTopics.input,
            output: latencyFloorTopics.output,
            rate: latencyRate, seconds: latencySeconds, traffic: latencyTraffic, outputBytes: latency.meanOutputBytes,
            logger: logger)
        // 5. Memory per live session, on a `zonestream run` child (only its memory counted).
        let bytesPerSession = try SessionMemory.measure(
            bootstrap: bootstrap, topics: (memoryTopic, changelogPrefix + SessionMemory.group), workers: workers,
            sessionCounts: sessionCounts, producer: producer,
            executable: executable)
        print("bench: RSS per live session: " + SessionMemory.describe(bytesPerSession, sessionCounts: sessionCounts))
        let floorSorted = floorLatency.latenciesMs.sorted()
        let sorted = latency.latenciesMs.sorted()
        func percentile(_ p: Double, of values: [Double] = sorted) -> Double { Percentile.of(p, values) }
        let untilProduced = latency.untilProducedMs.sorted()
        let outputPath = zip(latency.latenciesMs, latency.untilProducedMs).map { $0 - $1 }.sorted()
        print(
            String(
                format:
                    "bench: latency p50 / p99: %.1f / %.1f ms until ZoneStream produced the zone change, %.1f / %.1f ms from there until it was read",
                percentile(0.5, of: untilProduced), percentile(0.99, of: untilProduced),
                percentile(0.5, of: outputPath), percentile(0.99, of: outputPath)))
        // The curve: 300 points evenly spaced in -log10(1 - p), from p0 to p99.9, and the maximum.
        print(
            String(
                format:
                    "bench: latency p50 / p99 / p99.9: ZoneStream %.1f / %.1f / %.1f ms, the Kafka path alone (floor) %.1f / %.1f / %.1f ms",
                percentile(0.5), percentile(0.99), percentile(0.999),
                percentile(0.5, of: floorSorted), percentile(0.99, of: floorSorted), percentile(0.999, of: floorSorted))
        )
        func curve(_ values: [Double]) -> [[Double]] {
            (0...300).map { step -> [Double] in
                let p = 1 - pow(10, -Double(step) / 100)
                return [p * 100, percentile(p, of: values)]
            } + [[100, values.last ?? 0]]
        }
        let report = BenchReport(
            broker: bootstrapServers ?? "embedded mock cluster of \(brokers) brokers (a child process)",
            machine:
                "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB",
            records: records, partitions: partitions, workers: workers,
            ceilingRecordsPerSecond: ceiling, zoneStreamRecordsPerSecond: rate, ratio: rate / ceiling,
            liveViewsRecordsPerSecond: viewsRate,
            latencyTargetSamplesPerSecond: latencyRate, latencyPartitions: latencyPartitions,
            latencyTraffic: latencyTraffic.rawValue,
            latencyAchievedSamplesPerSecond: latency.achievedRate,
            latencyP50Ms: percentile(0.5), latencyP99Ms: percentile(0.99), latencyP999Ms: percentile(0.999),
            latencyFloorP50Ms: percentile(0.5, of: floorSorted), latencyFloorP99Ms: percentile(0.99, of: floorSorted),
            latencyFloorP999Ms: percentile(0.999, of: floorSorted),
            peakRSSBytes: ProcessMemory.residentBytes().peak,
            bytesPerSession10k: bytesPerSession.first ?? 0, bytesPerSession100k: bytesPerSession.last ?? 0,
            throughputOverTime: timeline, latencyPercentilesMs: curve(sorted),
            latencyFloorPercentilesMs: curve(floorSorted),
            gym: gym, peer: peerFigures)
        print("\n" + report.table + "\n\n" + gym.table + "\n")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: "\(output)/bench.json"))
        try report.svg.write(toFile: "\(output)/bench.svg", atomically: true, encoding: .utf8)
        print("bench: wrote \(output)/bench.json and \(output)/bench.svg")
        withExtendedLifetime((producer, preloadProducer)) {}
    }

    /// The preload's producer: a linger of 100 ms fills batches (up to librdkafka's 1 MB).
    static let preloadProducerProperties = ["linger.ms": "100", "batch.num.messages": "100000"]

    /// The consumer groups of the processor runs, each with its own changelog topic.
    static let groups = ["bench-zonestream", "bench-zonestream-live-views", SessionMemory.group] + GymRun.groups

    /// The contract's topics, each name with `prefix` before it.
    static func topics(prefix: String) -> Topics {
        var topics = Topics()
        topics.workoutEvents = prefix + topics.workoutEvents
        topics.zoneProfiles = prefix + topics.zoneProfiles
        topics.zoneChanges = prefix + topics.zoneChanges
        topics.workoutsFinished = prefix + topics.workoutsFinished
        topics.deadLetters = prefix + topics.deadLetters
        topics.changelog = prefix + topics.changelog
        return topics
    }

    /// Runs a processor over the preloaded records; returns records/s, the timeline and the
    /// processor's counters.
    static func throughput(configuration: ProcessorConfiguration, records: Int, logger: Logger) throws
        -> (cost: ClientCost, timeline: [[Double]], metrics: ProcessorMetrics)
    {
        let processor = ZoneProcessor(configuration: configuration, logger: logger)
        let failure = NIOLockedValueBox<String?>(nil)
        let thread = JoinableThread(name: "zs-bench-run") {
            do { try processor.run() } catch { failure.withLockedValue { $0 = "\(error)" } }
        }
        var timeline = ThroughputTimeline()
        var window = RateWindow(total: records)
        let deadline = Date().addingTimeInterval(600)
        while processor.metrics.recordsIn.load(ordering: .relaxed) < records && Date() < deadline {
            if let error = failure.withLockedValue({ $0 }) { throw BenchError(error) }
            // Check every 2 ms, so the window's edges are found to within a few thousand records.
            Thread.sleep(forTimeInterval: 0.002)
            let count = processor.metrics.recordsIn.load(ordering: .relaxed)
            window.note(count: count)
            timeline.note(count: count, final: count >= records)
        }
        let cost = window.cost()
        // Leaving the group at shutdown is not part of the rate.
        while processor.outputsInFlight > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        processor.stop()
        thread.join()
        return (cost, timeline.points, processor.metrics)
    }
}

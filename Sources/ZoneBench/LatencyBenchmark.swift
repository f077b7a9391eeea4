public import Foundation
public import Logging
import ZoneKafka
import ZoneProcessor

/// The latency measurement alone (`zonestream bench latency`): an embedded broker as a child
/// process, then `runs` times a fresh processor, paced samples and a reader of their zone
/// changes, each run on topics of its own. Quicker than the whole `bench` when only the record
/// path's waits are in question, and it can set librdkafka properties on ZoneStream's clients
/// (`kafkaProperties`), so a change of a wait can be measured before it becomes a default.
public struct LatencyBenchmark: Sendable {
    public var rate: Int
    public var seconds: Int
    public var partitions: Int
    public var workers: Int
    public var runs: Int
    /// librdkafka properties for ZoneStream's own clients only (not the bench's producer or reader).
    public var kafkaProperties: [String: String]
    /// ZoneStream's `commit_interval_ms`: how often a worker seals an epoch (and encodes and
    /// produces the changelog of every session changed since the last one).
    public var commitIntervalMs = ProcessorConfiguration.defaults.commitIntervalMs
    /// When the sessions cross zones (``LatencyTraffic``).
    public var traffic = LatencyTraffic.spread
    /// Brokers of the embedded cluster, as in ``Benchmark/brokers``.
    public var brokers = 3
    /// A Kafka cluster to run on instead of the embedded mock (`host:port,...`). The runs
    /// create topics of their own there (`bench-<unix time>-lat<run>-...`) and leave them. The
    /// mock finds a fetch's position by walking every batch its partition holds, so its cost
    /// per fetch grows through a run; a broker with an offset index does not.
    public var bootstrapServers: String?
    /// Which of the two each run measures. One alone lets each have a fresh broker of its own
    /// (on noida-db the client measured second on a broker was measured slower: its data file
    /// had grown by the first one's run).
    public var clients = LatencyClients.both
    /// The size the floor pads its outputs to when no ZoneStream run came before it in this
    /// invocation (``LatencyClients/floor``): ZoneStream's mean zone-change size, which a
    /// ZoneStream run prints.
    public var floorOutputBytes: Int?
    /// Peer stream processors to measure in each run instead of ZoneStream and the floor
    /// (``PeerLatency``): the same paced samples, their zone changes read the same way.
    public var peers: [String] = []
    /// The `zonestream` executable, started as the embedded broker.
    public var executable: URL

    public init(
        rate: Int, seconds: Int, partitions: Int, workers: Int, runs: Int, kafkaProperties: [String: String],
        executable: URL = URL(fileURLWithPath: CommandLine.arguments[0])
    ) {
        self.rate = rate
        self.seconds = seconds
        self.partitions = partitions
        self.workers = workers
        self.runs = runs
        self.kafkaProperties = kafkaProperties
        self.executable = executable
    }

    /// One run's percentiles, in milliseconds.
    public struct Figures: Sendable {
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var p999: Double
        public var max: Double
        public var untilProducedP50: Double
        public var untilProducedP99: Double
        public var outputPathP50: Double
        public var outputPathP99: Double
        public var zoneChanges: Int
        public var achievedRate: Double
        /// Crossing samples produced after the warm-up: every one should be read.
        public var zoneChangesProduced: Int
        public var meanOutputBytes: Int

        init(_ result: LatencyRun.Result) {
            let sorted = result.latenciesMs.sorted()
            let untilProduced = result.untilProducedMs.sorted()
            let outputPath = zip(result.latenciesMs, result.untilProducedMs).map { $0 - $1 }.sorted()
            p50 = Percentile.of(0.5, sorted)
            p90 = Percentile.of(0.9, sorted)
            p99 = Percentile.of(0.99, sorted)
            p999 = Percentile.of(0.999, sorted)
            max = sorted.last ?? 0
            untilProducedP50 = Percentile.of(0.5, untilProduced)
            untilProducedP99 = Percentile.of(0.99, untilProduced)
            outputPathP50 = Percentile.of(0.5, outputPath)
            outputPathP99 = Percentile.of(0.99, outputPath)
            zoneChanges = sorted.count
            achievedRate = result.achievedRate
            zoneChangesProduced = result.zoneChangesProduced
            meanOutputBytes = result.meanOutputBytes
        }

        public var summary: String {
            String(
                format:
                    "p50 / p90 / p99 / p99.9 / max %.1f / %.1f / %.1f / %.1f / %.1f ms over %d of %d zone changes of %d bytes at %.0f samples/s; until produced p50 / p99 %.1f / %.1f ms, produced to read %.1f / %.1f ms",
                p50, p90, p99, p999, max, zoneChanges, zoneChangesProduced, meanOutputBytes, achievedRate,
                untilProducedP50, untilProducedP99, outputPathP50, outputPathP99)
        }
    }

    /// Every run's topics: the processor's as it needs them (tables and changelogs compacted),
    /// the floor's and the peers'.
    private func topics(prefixes: [String]) -> [TopicAdmin.Specification] {
        prefixes.flatMap { prefix in
            let plain =
                [prefix + LatencyFloor.inputTopic, prefix + LatencyFloor.outputTopic]
                + peers.flatMap { peer -> [String] in
                    let topics = PeerLatency.topics(of: peer, prefix: prefix)
                    return [topics.input, topics.output]
                }
            return BenchTopics.topics(prefix: prefix).specifications(partitions: partitions, replicationFactor: 1)
                + plain.map { TopicAdmin.Specification(name: $0, partitions: partitions, replicationFactor: 1) }
        }
    }

    /// Run `index`'s measurement of each peer, printed.
    private func measurePeers(
        run index: Int, prefix: String, cluster: BenchCluster, kafka: KafkaConfiguration, producer: KafkaProducer,
        logger: Logger
    ) throws {
        for peer in peers {
            let result = try PeerLatency.run(
                peer: peer, bootstrapServers: cluster.bootstrapServers,
                topics: PeerLatency.topics(of: peer, prefix: prefix),
                kafka: kafka, producer: producer, rate: rate, seconds: seconds, onMock: cluster.isEmbedded,
                logger: logger)
            print("latency bench: run \(index + 1), peer \(peer): \(Figures(result).summary)")
        }
    }

    /// Runs it and prints each run's figures as it ends: ZoneStream, the latency floor or both
    /// (``LatencyClients``), or the peers.
    public func run(logger: Logger) throws -> (zoneStream: [Figures], floor: [Figures]) {
        let runPrefix = bootstrapServers == nil ? "" : "bench-\(Int(Date().timeIntervalSince1970))-"
        let prefixes = (1...max(1, runs)).map { "\(runPrefix)lat\($0)-" }
        let cluster = try BenchCluster(
            bootstrapServers: bootstrapServers, topics: topics(prefixes: prefixes),
            defaultPartitions: partitions, brokers: brokers, executable: executable)
        defer { cluster.stop() }
        let benchKafka = KafkaConfiguration(bootstrapServers: cluster.bootstrapServers, clientID: "zonestream-bench")
        var kafka = benchKafka
        kafka.properties = kafkaProperties
        let producer = try KafkaProducer(configuration: benchKafka)
        let properties = kafkaProperties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
            separator: " ")
        print(
            "latency bench: broker \(bootstrapServers ?? "embedded mock cluster of \(brokers) brokers"), \(rate) samples/s (\(traffic.rawValue) zone changes) for \(seconds) s, \(partitions) partitions, \(workers) workers, commit_interval_ms \(commitIntervalMs), ZoneStream's librdkafka properties: \(properties.isEmpty ? "defaults" : properties)"
        )
        var zoneStream: [Figures] = []
        var floor: [Figures] = []
        for (index, prefix) in prefixes.enumerated() {
            if !peers.isEmpty {
                try measurePeers(
                    run: index, prefix: prefix, cluster: cluster, kafka: benchKafka, producer: producer, logger: logger)
                continue
            }
            for floorTurn in clients.turns(run: index) {
                if floorTurn {
                    let result = try LatencyFloor.measure(
                        kafka: kafka, benchKafka: benchKafka, producer: producer,
                        input: prefix + LatencyFloor.inputTopic,
                        output: prefix + LatencyFloor.outputTopic, rate: rate, seconds: seconds, traffic: traffic,
                        outputBytes: zoneStream.last?.meanOutputBytes ?? floorOutputBytes ?? 0, logger: logger)
                    floor.append(Figures(result))
                    print("latency bench: run \(index + 1), floor:      \(floor[floor.count - 1].summary)")
                } else {
                    var configuration = ProcessorConfiguration(kafka: kafka)
                    configuration.topics = BenchTopics.topics(prefix: prefix)
                    configuration.groupID = prefix + "zonestream"
                    configuration.createTopicPartitions = 0
                    configuration.workers = workers
                    configuration.commitIntervalMs = commitIntervalMs
                    let result = try LatencyRun.measure(
                        configuration: configuration, benchKafka: benchKafka, producer: producer, rate: rate,
                        seconds: seconds, traffic: traffic,
                        logger: logger)
                    zoneStream.append(Figures(result))
                    print("latency bench: run \(index + 1), ZoneStream: \(zoneStream[zoneStream.count - 1].summary)")
                }
            }
        }
        return (zoneStream, floor)
    }
}

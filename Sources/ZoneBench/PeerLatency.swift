import Foundation
import Logging
import ZoneHarness
import ZoneKafka

/// Sample-to-zone-change latency of each peer at a fixed rate that all of them sustain, beside
/// ZoneStream's at the same rate, in the same measurement: the same paced heart-rate samples
/// (``LatencyRun/pace(producer:topic:rate:seconds:traffic:countingFromMs:)``, `ts` the wall
/// clock when each is produced) into topics of the peer's own, and its zone changes read back
/// by the same reader. The peer runs live (`--live`: it reads until it is stopped) as a child
/// process; it is measured once it has turned a probe sample into a zone change, so its start
/// (imports, joining its group) is not counted.
enum PeerLatency {
    struct Figures: Codable {
        var peer: String
        var samplesPerSecond: Int
        var seconds: Int
        var achievedSamplesPerSecond: Double
        /// The crossing samples produced after the warm-up, and the zone changes read of them.
        var zoneChangesProduced: Int
        var zoneChangesRead: Int
        var p50Ms: Double
        var p99Ms: Double
        var p999Ms: Double
        var maxMs: Double

        init(peer: String, rate: Int, seconds: Int, result: LatencyRun.Result) {
            let sorted = result.latenciesMs.sorted()
            self.peer = peer
            samplesPerSecond = rate
            self.seconds = seconds
            achievedSamplesPerSecond = result.achievedRate
            zoneChangesProduced = result.zoneChangesProduced
            zoneChangesRead = sorted.count
            p50Ms = Percentile.of(0.5, sorted)
            p99Ms = Percentile.of(0.99, sorted)
            p999Ms = Percentile.of(0.999, sorted)
            maxMs = sorted.last ?? 0
        }

        var summary: String {
            String(
                format:
                    "bench: latency at %d samples/s, %@: p50 / p99 / p99.9 %.1f / %.1f / %.1f ms (%d of %d zone changes read)",
                samplesPerSecond, peer, p50Ms, p99Ms, p999Ms, zoneChangesRead, zoneChangesProduced)
        }
    }

    /// The topics of one peer's latency run.
    static func topics(of peer: String, prefix: String) -> (input: String, output: String) {
        (prefix + "bench-peer-latency-\(peer)-in", prefix + "bench-peer-latency-\(peer)-out")
    }

    /// How long a peer may take to turn its first probe sample into a zone change.
    static let startSeconds: Double = 180

    /// `peer`'s latency at `rate` samples/s for `seconds`, on `topics` (made before), printed.
    static func measure(
        peer: String, bootstrapServers: String, topics: (input: String, output: String), kafka: KafkaConfiguration,
        producer: KafkaProducer, rate: Int, seconds: Int, onMock: Bool, logger: Logger
    ) throws -> Figures {
        let result = try run(
            peer: peer, bootstrapServers: bootstrapServers, topics: topics, kafka: kafka, producer: producer,
            rate: rate, seconds: seconds, onMock: onMock, logger: logger)
        let figures = Figures(peer: peer, rate: rate, seconds: seconds, result: result)
        print(figures.summary)
        return figures
    }

    /// How long the reader waits for a peer's last zone changes: a peer may hold its outputs
    /// for seconds (a batch, an epoch), so a half-second lull does not mean they are all in.
    static let quietSeconds: Double = 5

    /// One run of `peer` live at `rate` samples/s for `seconds`, on `topics` (made before).
    static func run(
        peer: String, bootstrapServers: String, topics: (input: String, output: String), kafka: KafkaConfiguration,
        producer: KafkaProducer, rate: Int, seconds: Int, onMock: Bool, logger: Logger
    ) throws -> LatencyRun.Result {
        let child = try start(peer: peer, bootstrapServers: bootstrapServers, topics: topics, onMock: onMock)
        defer {
            if !child.signal(SIGTERM, waitSeconds: 10) { child.signal(SIGKILL) }
        }
        try awaitFirstZoneChange(
            child: child, peer: peer, topics: topics, kafka: kafka, producer: producer, logger: logger)
        return try LatencyRun.paceAndRead(
            input: topics.input, output: topics.output, benchKafka: kafka, producer: producer, rate: rate,
            seconds: seconds, traffic: .spread, quietSeconds: quietSeconds, logger: logger)
    }

    private static func start(
        peer: String, bootstrapServers: String, topics: (input: String, output: String), onMock: Bool
    ) throws -> ZoneStreamProcess {
        let script = URL(fileURLWithPath: "benchmarks/peers/\(peer)/run.sh")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw BenchError("bench: --peer \(peer): \(script.path) not found (run bench from the repository's root)")
        }
        let group = "bench-peer-latency-\(peer)-\(Int(Date().timeIntervalSince1970))"
        return try ZoneStreamProcess(
            [
                script.path, "--bootstrap-servers", bootstrapServers, "--input", topics.input, "--output",
                topics.output, "--live", "--group", group, "--state-dir",
                NSTemporaryDirectory() + "zonestream-\(group)",
            ] + (onMock ? ["--mock"] : []), executable: URL(fileURLWithPath: "/bin/bash"))
    }

    /// Produces a probe session's zone-crossing samples, a few a second, until the peer's
    /// first zone change is read.
    private static func awaitFirstZoneChange(
        child: ZoneStreamProcess, peer: String, topics: (input: String, output: String), kafka: KafkaConfiguration,
        producer: KafkaProducer, logger: Logger
    ) throws {
        let consumer = try KafkaConsumer(
            configuration: kafka, groupID: nil, logger: logger, properties: ["fetch.wait.max.ms": "50"])
        defer { consumer.close() }
        try consumer.assign(try ZoneChangeLatencyReader.partitionsAtEnd(of: topics.output, consumer: consumer))
        let deadline = Date().addingTimeInterval(startSeconds)
        var step = 0
        while Date() < deadline {
            guard child.isRunning else {
                throw BenchError(
                    "bench: the \(peer) peer stopped before its first zone change: \(child.output.suffix(800))")
            }
            let value = BenchTraffic.sample("probe", ts: Int64(Date().timeIntervalSince1970 * 1000), step: step * 10)
            try producer.produce(topic: topics.input, key: Array("probe".utf8), value: value, tracker: nil)
            producer.pollDeliveryReports(timeoutMs: 0)
            step += 1
            var read = 0
            consumer.poll(timeoutMs: 250) { _ in read += 1 }
            if read > 0 { return }
        }
        throw BenchError(
            "bench: the \(peer) peer made no zone change within \(Int(startSeconds)) s: \(child.output.suffix(800))")
    }
}

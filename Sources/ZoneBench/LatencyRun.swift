import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneKafka
import ZoneProcessor

/// Sample-to-zone-change latency at a fixed rate.
/// Samples carry the wall-clock time they were produced as `ts`, so a zone change's
/// latency is the time it was read minus its `ts`.
enum LatencyRun {
    /// Before the contract's topic names: the latency run's topics are its own, so its
    /// processor starts with nothing to catch up on and its reader with empty partitions.
    static let topicPrefix = "bench-latency-"
    /// The processor run's consumer group (its state topics are named after it).
    static let group = "bench-latency"

    /// Partitions of the latency topics. The mock broker finds a fetch's position by walking
    /// every message set the partition holds (librdkafka 2.0's `rd_kafka_mock_msgset_find`,
    /// "FIXME: Maintain an index"), so its cost per fetch grows with partitions times the
    /// batches each has taken: at 100,000 samples/s over 32 partitions that walk took 85% of
    /// the mock's thread and a growing share of both cores within seconds. Eight
    /// partitions carry the rate with two workers and keep the mock from being what is measured.
    static let defaultPartitions = 8

    struct Result {
        var latenciesMs: [Double]
        /// Per zone change, the part of its latency until ZoneStream produced it (the output
        /// record's create time minus the sample's): the input path and the processing. The
        /// rest is the output path (producer linger, broker, the reader's fetch).
        var untilProducedMs: [Double]
        var achievedRate: Double
        /// The crossing samples produced after the warm-up: each must come back as one zone
        /// change read (a smoke test checks that the two counts agree).
        var zoneChangesProduced = 0
        /// The mean size of the outputs read (zone-change events, or the floor's forwards).
        var meanOutputBytes = 0
    }

    static func measure(
        configuration: ProcessorConfiguration, benchKafka: KafkaConfiguration, producer: KafkaProducer, rate: Int,
        seconds: Int, traffic: LatencyTraffic, logger: Logger
    ) throws -> Result {
        let processor = ZoneProcessor(configuration: configuration, logger: logger)
        let failure = NIOLockedValueBox<String?>(nil)
        let thread = JoinableThread(name: "zs-bench-lat") {
            do { try processor.run() } catch { failure.withLockedValue { $0 = "\(error)" } }
        }
        defer {
            processor.stop()
            thread.join()
        }
        // The processor stops by itself only when it cannot run (a topic layout it refuses, a
        // broker gone): say so rather than wait for a readiness that will not come.
        let deadline = Date().addingTimeInterval(300)
        while !processor.isReady {
            if let message = failure.withLockedValue({ $0 }) {
                throw BenchError("bench: the processor stopped before it was ready: \(message)")
            }
            guard Date() < deadline else { throw BenchError("bench: the processor was not ready within 300 s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try paceAndRead(
            input: configuration.topics.workoutEvents, output: configuration.topics.zoneChanges, benchKafka: benchKafka,
            producer: producer, rate: rate, seconds: seconds, traffic: traffic, logger: logger)
    }

    /// The first second of pacing is not counted, for ZoneStream and the floor alike: it
    /// holds each client's first requests (metadata, offsets, the output topics' first
    /// batches) and the sessions' creation, costs a process pays once, not per sample.
    static let warmUpSeconds = 1

    /// The measurement both ZoneStream and the floor go through: a reader of `output` from its
    /// end, the warm-up and then `seconds` of paced samples into `input`, and every output read.
    static func paceAndRead(
        input: String, output: String, benchKafka: KafkaConfiguration, producer: KafkaProducer, rate: Int, seconds: Int,
        traffic: LatencyTraffic, quietSeconds: Double = 0.5, logger: Logger
    ) throws -> Result {
        let countingFromMs = Int64(Date().timeIntervalSince1970 * 1000) + Int64(warmUpSeconds * 1000)
        let reader = try ZoneChangeLatencyReader(
            kafka: benchKafka, topic: output, countingFromMs: countingFromMs, logger: logger)
        defer { reader.stop() }
        let paced = try pace(
            producer: producer, topic: input, rate: rate, seconds: seconds + warmUpSeconds, traffic: traffic,
            countingFromMs: countingFromMs)
        try producer.flush(timeoutMs: 30_000)
        reader.waitUntilQuiet(seconds: quietSeconds)
        return Result(
            latenciesMs: reader.latencies, untilProducedMs: reader.untilProduced, achievedRate: paced.rate,
            zoneChangesProduced: paced.zoneChanges, meanOutputBytes: reader.meanValueBytes)
    }

    /// Sessions of the paced samples; each changes zone every 10th sample.
    static let sessions = 1000

    /// Produces heart-rate samples at `rate` for `seconds` over ``sessions`` sessions, `ts` the
    /// wall clock when each is produced, in small bursts of what is due, the sessions crossing
    /// zones as `traffic` says; returns the rate reached and the crossing samples produced
    /// from `countingFromMs` on.
    static func pace(
        producer: KafkaProducer, topic: String, rate: Int, seconds: Int, traffic: LatencyTraffic, countingFromMs: Int64
    ) throws -> (rate: Double, zoneChanges: Int) {
        let started = Date()
        var sent = 0
        var zoneChanges = 0
        while Date().timeIntervalSince(started) < Double(seconds) {
            let due = started.addingTimeInterval(Double(sent) / Double(rate))
            let wait = due.timeIntervalSinceNow
            if wait > 0 { Thread.sleep(forTimeInterval: min(wait, 0.01)) }
            let target = min(Int(Date().timeIntervalSince(started) * Double(rate)) + 1, rate * seconds)
            while sent < target {
                let index = sent % sessions
                let id = BenchTraffic.sessionID(index, prefix: "l")
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                let phase = traffic == .spread ? index % 10 : 0
                let value = BenchTraffic.sample(id, ts: now, step: sent / sessions, phase: phase)
                if now >= countingFromMs && value.withUnsafeBytes({ BenchTraffic.crossesZone($0) }) { zoneChanges += 1 }
                try producer.produce(topic: topic, key: Array(id.utf8), value: value, tracker: nil)
                sent += 1
            }
            producer.pollDeliveryReports(timeoutMs: 0)
        }
        return (Double(sent) / Date().timeIntervalSince(started), zoneChanges)
    }
}

/// Reads zone changes as they are produced and records now - ts per event.
final class ZoneChangeLatencyReader: Sendable {
    private let consumer: KafkaConsumer
    private let values = NIOLockedValueBox<[(total: Double, untilProduced: Double)]>([])
    private let valueBytes = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)

    /// `countingFromMs`: zone changes of samples produced before this wall-clock time (the
    /// warm-up) are read but not counted.
    init(kafka: KafkaConfiguration, topic: String, countingFromMs: Int64, logger: Logger) throws {
        consumer = try KafkaConsumer(
            configuration: kafka, groupID: nil, logger: logger, properties: ["fetch.wait.max.ms": "5"])
        try consumer.assign(try Self.partitionsAtEnd(of: topic, consumer: consumer))
        let thread = JoinableThread(name: "zs-bench-read") { [self] in
            while running.load(ordering: .relaxed) {
                consumer.poll(timeoutMs: 20) { record in
                    guard let value = record.value, let ts = Self.timestamp(in: value), ts >= countingFromMs else {
                        return
                    }
                    let latency = Date().timeIntervalSince1970 * 1000 - Double(ts)
                    let untilProduced = Double(record.timestampMs - ts)
                    values.withLockedValue { $0.append((latency, untilProduced)) }
                    valueBytes.add(value.count, ordering: .relaxed)
                }
            }
        }
        self.thread.withLockedValue { $0 = thread }
    }

    /// Every partition of `topic` at its current end, to read only what comes from now on.
    static func partitionsAtEnd(of topic: String, consumer: KafkaConsumer) throws -> [TopicPartition] {
        try (0..<Int32(consumer.partitionCount(topic: topic))).map { partition in
            let end = try consumer.watermarks(TopicPartition(topic: topic, partition: partition)).high
            return TopicPartition(topic: topic, partition: partition, offset: end)
        }
    }

    var latencies: [Double] { values.withLockedValue { $0.map(\.total) } }
    var untilProduced: [Double] { values.withLockedValue { $0.map(\.untilProduced) } }
    var meanValueBytes: Int { valueBytes.load(ordering: .relaxed) / max(1, values.withLockedValue { $0.count }) }

    /// Waits until no zone change has arrived for `seconds` (the last ones are in), at most
    /// 10 s longer than that.
    func waitUntilQuiet(seconds: Double) {
        let deadline = Date().addingTimeInterval(10 + seconds)
        var count = values.withLockedValue { $0.count }
        var lastChange = Date()
        while Date() < deadline && Date().timeIntervalSince(lastChange) < seconds {
            Thread.sleep(forTimeInterval: 0.05)
            let now = values.withLockedValue { $0.count }
            if now != count {
                count = now
                lastChange = Date()
            }
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread.withLockedValue { $0 }?.join()
        consumer.close()
    }

    /// The `"ts":` integer of a zone_change event (the first `"ts":` key in it; blanks after
    /// the colon are skipped, as a peer's JSON writer may put one there).
    static func timestamp(in bytes: UnsafeRawBufferPointer) -> Int64? {
        let key = Array("\"ts\":".utf8)
        guard bytes.count > key.count else { return nil }
        for start in 0..<(bytes.count - key.count) where bytes[start] == key[0] {
            guard (0..<key.count).allSatisfy({ bytes[start + $0] == key[$0] }) else { continue }
            var index = start + key.count
            while index < bytes.count, bytes[index] == 32 { index += 1 }
            var value: Int64 = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                value = value * 10 + Int64(bytes[index] - 48)
                index += 1
            }
            return value
        }
        return nil
    }
}

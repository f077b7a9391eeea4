import Foundation
import Logging
import Synchronization
import ZoneKafka
import ZoneProcessor
import ZoneSimulation

/// The benchmark on the load generator's gym traffic: what the traffic is, and ZoneStream
/// against the bare consumer and the Kafka I/O floor on the same records, in one run.
enum GymRun {
    struct Figures: Codable {
        var mix: GymPreload.Mix
        var bareConsumerRecordsPerSecond: Double
        var floorRecordsPerSecond: Double
        var zoneStreamRecordsPerSecond: Double
        var zoneStreamWithoutLiveViewsRecordsPerSecond: Double
        var zoneChangesPerMillionRecords: Double
        var finishedWorkoutsPerMillionRecords: Double
        var outputRecords: Int
        var outputMeanBytes: Int
        /// Every run of ZoneStream in order (live views on, off, off, on: the order alternated
        /// so neither side always runs on a warmer broker); the rates above are their means.
        var liveViewRuns: [LiveViewRun]
        /// What each client's records cost this process in CPU (ZoneStream: its runs with live
        /// views on), so the rates can be read against the machine's cores.
        var zoneStreamCost: ClientCost
        var floorCost: ClientCost
        var bareConsumerCost: ClientCost
        /// (seconds since the first record, records/s) of each client, for the plot.
        var zoneStreamTimeline: [[Double]]
        var bareConsumerTimeline: [[Double]]
        var floorTimeline: [[Double]]

        var summary: String {
            String(format: "bench: gym traffic %d records (%@); ZoneStream %.0f records/s, %.2f of the I/O floor, %.2f of the bare consumer",
                mix.records, mix.summary, zoneStreamRecordsPerSecond, zoneStreamRecordsPerSecond / floorRecordsPerSecond,
                zoneStreamRecordsPerSecond / bareConsumerRecordsPerSecond)
        }

        var table: String {
            func row(_ name: String, _ value: String) -> String { "| \(name.padding(toLength: 52, withPad: " ", startingAt: 0)) | \(value) |" }
            return [
                "| gym traffic (load generator) | value |", "| --- | --- |",
                row("records (by type)", "\(mix.records) (\(mix.summary)); \(mix.sessions) sessions"),
                row("zone changes / finished workouts per million records", String(format: "%.0f / %.0f", zoneChangesPerMillionRecords, finishedWorkoutsPerMillionRecords)),
                row("bare consumer, records/s", String(format: "%.0f", bareConsumerRecordsPerSecond)),
                row("Kafka I/O floor, records/s", String(format: "%.0f (%d outputs of %d bytes)", floorRecordsPerSecond, outputRecords, outputMeanBytes)),
                row("ZoneStream with live views, records/s (mean of 2)", String(format: "%.0f", zoneStreamRecordsPerSecond)),
                row("ZoneStream without live views, records/s (mean of 2)", String(format: "%.0f", zoneStreamWithoutLiveViewsRecordsPerSecond)),
                row("live views on/off, in run order, records/s", liveViewRuns.map {
                    String(format: "%@ %.0f", $0.liveViews ? "on" : "off", $0.recordsPerSecond) }.joined(separator: ", ")),
                row("ZoneStream / floor, ZoneStream / bare consumer", String(format: "%.2f, %.2f",
                    zoneStreamRecordsPerSecond / floorRecordsPerSecond, zoneStreamRecordsPerSecond / bareConsumerRecordsPerSecond)),
                row("CPU: ZoneStream (live views on)", zoneStreamCost.description),
                row("CPU: Kafka I/O floor", floorCost.description),
                row("CPU: bare consumer", bareConsumerCost.description),
            ].joined(separator: "\n")
        }
    }

    static func measure(
        configuration: ProcessorConfiguration, records: Int, classSize: GymPreload.ClassSize, floorTopic: String,
        changelogPrefix: String, producer: KafkaProducer, logger: Logger
    ) throws -> Figures {
        let topics = configuration.topics
        let mix = try GymPreload.produce(records: records, classSize: classSize, seed: 1, topics: topics, producer: producer)
        let total = mix.records
        let kafka = configuration.kafka
        let bare = try BareConsumer.measure(
            kafka: kafka, topic: topics.workoutEvents, records: total, workers: configuration.workers, logger: logger)

        // ZoneStream as `run` has it (live views on) and with them off, alternated: on, off,
        // off, on, each run its own group and changelog.
        var runs: [LiveViewRun] = []
        var firstRun: (timeline: [[Double]], metrics: ProcessorMetrics)?
        for (index, group) in groups.enumerated() {
            var run = configuration
            run.groupID = group
            run.topics.changelog = changelogPrefix + group
            run.publishesLiveSessions = index == 0 || index == 3
            run.profilesCatchUpMs = 30_000
            let (cost, timeline, metrics) = try Benchmark.throughput(configuration: run, records: total, logger: logger)
            runs.append(LiveViewRun(liveViews: run.publishesLiveSessions, recordsPerSecond: cost.recordsPerSecond, cost: cost))
            if firstRun == nil { firstRun = (timeline, metrics) }
        }
        guard let firstRun else { throw BenchError("bench: no gym run") }
        let processor = firstRun.metrics

        // What ZoneStream wrote for those records (one run's worth), for the floor to write too.
        let zoneChanges = processor.zoneChanges.load(ordering: .relaxed)
        let finished = processor.workoutsFinished.load(ordering: .relaxed)
        let outputs = zoneChanges + finished + processor.deadLetters.load(ordering: .relaxed)
            + processor.changelogRecords.load(ordering: .relaxed)
        let sample = try outputSample(
            kafka: kafka,
            topics: [
                (topics.zoneChanges, zoneChanges), (topics.workoutsFinished, finished),
                (changelogPrefix + groups[0], processor.changelogRecords.load(ordering: .relaxed)),
            ],
            logger: logger)
        let meanBytes = sample.isEmpty ? 0 : sample.reduce(0) { $0 + $1.count } / sample.count
        let (floorCost, floorTimeline) = try KafkaFloor.measure(
            kafka: kafka, topic: topics.workoutEvents, outputTopic: floorTopic, records: total,
            outputs: KafkaFloor.Outputs(count: outputs, values: sample),
            commitIntervalMs: configuration.commitIntervalMs, workers: configuration.workers, logger: logger)
        let perMillion = 1_000_000 / Double(max(total, 1))
        return Figures(
            mix: mix, bareConsumerRecordsPerSecond: bare.cost.recordsPerSecond, floorRecordsPerSecond: floorCost.recordsPerSecond,
            zoneStreamRecordsPerSecond: LiveViewRun.mean(runs, liveViews: true),
            zoneStreamWithoutLiveViewsRecordsPerSecond: LiveViewRun.mean(runs, liveViews: false),
            zoneChangesPerMillionRecords: Double(zoneChanges) * perMillion,
            finishedWorkoutsPerMillionRecords: Double(finished) * perMillion, outputRecords: outputs, outputMeanBytes: meanBytes,
            liveViewRuns: runs,
            zoneStreamCost: ClientCost.mean(runs.filter(\.liveViews).map(\.cost)), floorCost: floorCost,
            bareConsumerCost: bare.cost, zoneStreamTimeline: firstRun.timeline, bareConsumerTimeline: bare.timeline,
            floorTimeline: floorTimeline)
    }

    /// The consumer groups of the gym runs, in order: views on, off, off, on.
    static let groups = ["bench-gym-live-views", "bench-gym", "bench-gym-2", "bench-gym-live-views-2"]

    /// One ZoneStream run over the gym traffic.
    struct LiveViewRun: Codable {
        var liveViews: Bool
        var recordsPerSecond: Double
        var cost: ClientCost

        static func mean(_ runs: [LiveViewRun], liveViews: Bool) -> Double {
            let rates = runs.filter { $0.liveViews == liveViews }.map(\.recordsPerSecond)
            return rates.isEmpty ? 0 : rates.reduce(0, +) / Double(rates.count)
        }
    }

    /// What ZoneStream wrote, for the floor to write again: up to 20,000 values read from the
    /// start of the output topics, each topic's share in proportion to the records ZoneStream
    /// wrote to it (`topics`: name and count). The floor produces these bytes, not filler of
    /// the same size, because the producer compresses its batches (lz4) and a run of one
    /// repeated byte compresses to almost nothing, which would understate the floor's work.
    static func outputSample(kafka: KafkaConfiguration, topics: [(name: String, count: Int)], logger: Logger) throws -> [[UInt8]] {
        let total = max(1, topics.reduce(0) { $0 + $1.count })
        let consumer = try KafkaConsumer(configuration: kafka, groupID: nil, logger: logger)
        defer { consumer.close() }
        var sample: [[UInt8]] = []
        for topic in topics where topic.count > 0 {
            let share = max(1, 20_000 * topic.count / total)
            var partitions: [TopicPartition] = []
            for partition in 0..<Int32(try consumer.partitionCount(topic: topic.name)) {
                partitions.append(TopicPartition(topic: topic.name, partition: partition, offset: TopicPartition.beginning))
            }
            try consumer.assign(partitions)
            var values: [[UInt8]] = []
            let deadline = Date().addingTimeInterval(10)
            while values.count < share && Date() < deadline {
                consumer.poll(timeoutMs: 50) { record in
                    if let value = record.value { values.append(Array(value)) }
                }
            }
            sample += values
        }
        // Interleaved, so the floor's outputs mix the kinds as ZoneStream's did.
        var generator = SplitMix64(seed: 15)
        sample.shuffle(using: &generator)
        return sample
    }
}

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
        /// Each baseline's runs in order (one before ZoneStream's last two runs and one after
        /// them for the floor; one before and one after all of them for the bare consumer);
        /// the figures above are their means.
        var floorRuns: [ClientCost]
        var bareConsumerRuns: [ClientCost]
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
                row("bare consumer, records/s (mean of 2)", String(format: "%.0f (runs: %@)", bareConsumerRecordsPerSecond,
                    bareConsumerRuns.map { String(format: "%.0f", $0.recordsPerSecond) }.joined(separator: ", "))),
                row("Kafka I/O floor, records/s (mean of 2)", String(format: "%.0f (runs: %@; %d outputs of %d bytes)", floorRecordsPerSecond,
                    floorRuns.map { String(format: "%.0f", $0.recordsPerSecond) }.joined(separator: ", "), outputRecords, outputMeanBytes)),
                row("ZoneStream with live views, records/s (mean of 2)", String(format: "%.0f", zoneStreamRecordsPerSecond)),
                row("ZoneStream without live views, records/s (mean of 2)", String(format: "%.0f", zoneStreamWithoutLiveViewsRecordsPerSecond)),
                row("ZoneStream runs in order (views on/off), records/s", liveViewRuns.map {
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
        func bareRun(_ run: Int) throws -> (cost: ClientCost, timeline: [[Double]]) {
            try BareConsumer.measure(
                kafka: kafka, topic: topics.workoutEvents, records: total, workers: configuration.workers, run: run, logger: logger)
        }

        // Each baseline runs twice, before and after ZoneStream's runs, and ZoneStream's runs
        // alternate live views on and off: bare, on, off, floor, off, on, floor, bare. So no
        // client always runs first or last in the process (on a colder or warmer heap and
        // broker), and each baseline's figure is the mean of two runs: its single run moved
        // by 10-20% between benchmarks, more than anything measured against it.
        let bare = try bareRun(1)
        var runs: [LiveViewRun] = []
        var firstRun: (timeline: [[Double]], metrics: ProcessorMetrics)?
        var floorOutputs: KafkaFloor.Outputs?
        var floorRuns: [ClientCost] = []
        var floorTimeline: [[Double]] = []
        for (index, group) in groups.enumerated() {
            var run = configuration
            run.groupID = group
            run.topics.changelog = changelogPrefix + group
            run.publishesLiveSessions = index == 0 || index == 3
            run.profilesCatchUpMs = 30_000
            let (cost, timeline, metrics) = try Benchmark.throughput(configuration: run, records: total, logger: logger)
            runs.append(LiveViewRun(liveViews: run.publishesLiveSessions, recordsPerSecond: cost.recordsPerSecond, cost: cost))
            if firstRun == nil { firstRun = (timeline, metrics) }
            guard index == 1 || index == 3, let firstRun else { continue }
            let outputs = try floorOutputs ?? outputsOf(firstRun.metrics, topics: topics, changelogPrefix: changelogPrefix, kafka: kafka, logger: logger)
            floorOutputs = outputs
            let floor = try KafkaFloor.measure(
                kafka: kafka, topic: topics.workoutEvents, outputTopic: floorTopic, records: total, outputs: outputs,
                commitIntervalMs: configuration.commitIntervalMs, workers: configuration.workers, run: floorRuns.count + 1,
                logger: logger)
            floorRuns.append(floor.cost)
            if floorTimeline.isEmpty { floorTimeline = floor.timeline }
        }
        let bareRuns = [bare.cost, try bareRun(2).cost]
        guard let firstRun, let outputs = floorOutputs else { throw BenchError("bench: no gym run") }
        let processor = firstRun.metrics
        let zoneChanges = processor.zoneChanges.load(ordering: .relaxed)
        let finished = processor.workoutsFinished.load(ordering: .relaxed)
        let floorCost = ClientCost.mean(floorRuns)
        let bareCost = ClientCost.mean(bareRuns)
        let perMillion = 1_000_000 / Double(max(total, 1))
        return Figures(
            mix: mix, bareConsumerRecordsPerSecond: bareCost.recordsPerSecond, floorRecordsPerSecond: floorCost.recordsPerSecond,
            zoneStreamRecordsPerSecond: LiveViewRun.mean(runs, liveViews: true),
            zoneStreamWithoutLiveViewsRecordsPerSecond: LiveViewRun.mean(runs, liveViews: false),
            zoneChangesPerMillionRecords: Double(zoneChanges) * perMillion,
            finishedWorkoutsPerMillionRecords: Double(finished) * perMillion, outputRecords: outputs.count,
            outputMeanBytes: outputs.meanBytes,
            liveViewRuns: runs,
            zoneStreamCost: ClientCost.mean(runs.filter(\.liveViews).map(\.cost)), floorCost: floorCost,
            bareConsumerCost: bareCost, floorRuns: floorRuns, bareConsumerRuns: bareRuns, zoneStreamTimeline: firstRun.timeline,
            bareConsumerTimeline: bare.timeline, floorTimeline: floorTimeline)
    }

    /// What ZoneStream's run wrote (`metrics`: how many outputs; their bytes read back from
    /// its topics), for the floor to write again.
    private static func outputsOf(
        _ metrics: ProcessorMetrics, topics: Topics, changelogPrefix: String, kafka: KafkaConfiguration, logger: Logger
    ) throws -> KafkaFloor.Outputs {
        let zoneChanges = metrics.zoneChanges.load(ordering: .relaxed)
        let finished = metrics.workoutsFinished.load(ordering: .relaxed)
        let changelog = metrics.changelogRecords.load(ordering: .relaxed)
        let values = try outputSample(
            kafka: kafka,
            topics: [(topics.zoneChanges, zoneChanges), (topics.workoutsFinished, finished), (changelogPrefix + groups[0], changelog)],
            logger: logger)
        return KafkaFloor.Outputs(
            count: zoneChanges + finished + metrics.deadLetters.load(ordering: .relaxed) + changelog, values: values)
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

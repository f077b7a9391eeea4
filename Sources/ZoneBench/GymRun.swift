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
        /// Each client's rates over the rounds, with their median and spread; the rates above
        /// are the medians.
        var zoneStreamRates: Spread
        var zoneStreamWithoutLiveViewsRates: Spread
        var floorRates: Spread
        var bareConsumerRates: Spread
        /// ZoneStream (live views on) / the floor, and / the bare consumer, round by round
        /// (each a ratio of two runs in the same round), with their median and spread.
        var ratioToFloor: Spread
        var ratioToBareConsumer: Spread
        /// Every run of ZoneStream in order (live views on and off alternate).
        var liveViewRuns: [LiveViewRun]
        /// What each client's records cost this process in CPU (ZoneStream: its runs with live
        /// views on), the medians over the rounds, so the rates can be read against the cores.
        var zoneStreamCost: ClientCost
        var floorCost: ClientCost
        var bareConsumerCost: ClientCost
        /// (seconds since the first record, records/s) of each client, for the plot.
        var zoneStreamTimeline: [[Double]]
        var bareConsumerTimeline: [[Double]]
        var floorTimeline: [[Double]]

        var summary: String {
            "bench: gym traffic \(mix.records) records (\(mix.summary)); ZoneStream \(zoneStreamRates.text()) records/s, "
                + "\(ratioToFloor.text("%.2f")) of the I/O floor, \(ratioToBareConsumer.text("%.2f")) of the bare consumer"
        }

        var table: String {
            func row(_ name: String, _ value: String) -> String {
                "| \(name.padding(toLength: 52, withPad: " ", startingAt: 0)) | \(value) |"
            }
            return [
                "| gym traffic (load generator) | value |", "| --- | --- |",
                row("records (by type)", "\(mix.records) (\(mix.summary)); \(mix.sessions) sessions"),
                row(
                    "zone changes / finished workouts per million records",
                    String(format: "%.0f / %.0f", zoneChangesPerMillionRecords, finishedWorkoutsPerMillionRecords)),
                row("bare consumer, records/s", bareConsumerRates.text()),
                row(
                    "Kafka I/O floor, records/s",
                    "\(floorRates.text()) (\(outputRecords) outputs of \(outputMeanBytes) bytes)"),
                row("ZoneStream with live views, records/s", zoneStreamRates.text()),
                row("ZoneStream without live views, records/s", zoneStreamWithoutLiveViewsRates.text()),
                row("ZoneStream / floor (round by round)", ratioToFloor.text("%.2f")),
                row("ZoneStream / bare consumer (round by round)", ratioToBareConsumer.text("%.2f")),
                row("CPU: ZoneStream (live views on)", zoneStreamCost.description),
                row("CPU: Kafka I/O floor", floorCost.description),
                row("CPU: bare consumer", bareConsumerCost.description),
            ].joined(separator: "\n")
        }
    }

    static func measure(
        configuration: ProcessorConfiguration, topics: Topics, records: Int, classSize: GymPreload.ClassSize,
        floorTopic: String, changelogPrefix: String, producer: KafkaProducer, logger: Logger
    ) throws -> Figures {
        let mix = try GymPreload.produce(
            records: records, classSize: classSize, seed: 1, topics: topics, producer: producer)
        try PreloadCheck.requireKept(
            records: mix.records, topic: topics.workoutEvents, kafka: configuration.kafka, logger: logger)
        // A first ZoneStream run, not counted: the process's heap grows to its working size
        // (the runs before it faulted in fresh pages: up to twice the CPU per record), and its
        // outputs are the ones the floor writes again.
        let warmUp = BenchProcessorRun(
            base: configuration, topics: topics, group: warmUpGroup, changelogPrefix: changelogPrefix, liveViews: true)
        let warmUpRun = try Benchmark.throughput(
            configuration: warmUp.configuration, records: mix.records, logger: logger)
        let outputs = try outputsOf(
            warmUpRun.metrics, topics: topics, changelog: changelogPrefix + warmUpGroup, kafka: configuration.kafka,
            logger: logger)
        var rounds = GymRounds(
            configuration: configuration, topics: topics, records: mix.records, floorTopic: floorTopic,
            changelogPrefix: changelogPrefix, floorOutputs: outputs, logger: logger)
        // Rounds of the four clients, the order reversed every other round (bare, on, off,
        // floor; floor, off, on, bare; ...), so no client always runs first or last (on a
        // colder or warmer heap and broker). Each figure is the median of its runs, and each
        // ratio the median of the rounds' ratios, with the spread.
        for round in 0..<rounds.count {
            let order: [GymRounds.Client] =
                round % 2 == 0 ? [.bare, .liveViews, .noLiveViews, .floor] : [.floor, .noLiveViews, .liveViews, .bare]
            for client in order { try rounds.run(client) }
        }
        let perMillion = 1_000_000 / Double(max(mix.records, 1))
        return rounds.figures(
            mix: mix,
            zoneChangesPerMillionRecords: Double(warmUpRun.metrics.zoneChanges.load(ordering: .relaxed)) * perMillion,
            finishedWorkoutsPerMillionRecords: Double(warmUpRun.metrics.workoutsFinished.load(ordering: .relaxed))
                * perMillion)
    }

    /// What ZoneStream's run wrote (`metrics`: how many outputs; their bytes read back from
    /// its topics), for the floor to write again.
    static func outputsOf(
        _ metrics: ProcessorMetrics, topics: Topics, changelog: String, kafka: KafkaConfiguration, logger: Logger
    ) throws -> KafkaFloor.Outputs {
        let zoneChanges = metrics.zoneChanges.load(ordering: .relaxed)
        let finished = metrics.workoutsFinished.load(ordering: .relaxed)
        let changelogRecords = metrics.changelogRecords.load(ordering: .relaxed)
        let values = try outputSample(
            kafka: kafka,
            topics: [
                (topics.zoneChanges, zoneChanges), (topics.workoutsFinished, finished), (changelog, changelogRecords),
            ],
            logger: logger)
        return KafkaFloor.Outputs(
            count: zoneChanges + finished + metrics.deadLetters.load(ordering: .relaxed) + changelogRecords,
            values: values)
    }

    /// Rounds of the four clients (each client's spread needs at least three runs).
    static let rounds = 3

    /// The consumer group of the uncounted first run.
    static let warmUpGroup = "bench-gym-warm-up"

    /// The consumer groups of the gym's ZoneStream runs, the uncounted first one included,
    /// each with state topics of its own.
    static let groups = [warmUpGroup] + (1...(2 * rounds)).map { "bench-gym-\($0)" }

    /// One ZoneStream run over the gym traffic.
    struct LiveViewRun: Codable {
        var liveViews: Bool
        var recordsPerSecond: Double
        var cost: ClientCost
    }

    /// What ZoneStream wrote, for the floor to write again: up to 20,000 values read from the
    /// start of the output topics, each topic's share in proportion to the records ZoneStream
    /// wrote to it (`topics`: name and count). The floor produces these bytes, not filler of
    /// the same size, because the producer compresses its batches (lz4) and a run of one
    /// repeated byte compresses to almost nothing, which would understate the floor's work.
    static func outputSample(kafka: KafkaConfiguration, topics: [(name: String, count: Int)], logger: Logger) throws
        -> [[UInt8]]
    {
        let total = max(1, topics.reduce(0) { $0 + $1.count })
        let consumer = try KafkaConsumer(configuration: kafka, groupID: nil, logger: logger)
        defer { consumer.close() }
        var sample: [[UInt8]] = []
        for topic in topics where topic.count > 0 {
            // At most what the topic holds: a smaller run's outputs are all read, not waited for.
            let share = min(topic.count, max(1, 20_000 * topic.count / total))
            var partitions: [TopicPartition] = []
            for partition in 0..<Int32(try consumer.partitionCount(topic: topic.name)) {
                partitions.append(
                    TopicPartition(topic: topic.name, partition: partition, offset: TopicPartition.beginning))
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

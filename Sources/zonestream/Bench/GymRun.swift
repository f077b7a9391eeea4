import Foundation
import Logging
import Synchronization
import ZoneKafka
import ZoneProcessor

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
                row("ZoneStream with live views, records/s", String(format: "%.0f", zoneStreamRecordsPerSecond)),
                row("ZoneStream without live views, records/s", String(format: "%.0f", zoneStreamWithoutLiveViewsRecordsPerSecond)),
                row("ZoneStream / floor, ZoneStream / bare consumer", String(format: "%.2f, %.2f",
                    zoneStreamRecordsPerSecond / floorRecordsPerSecond, zoneStreamRecordsPerSecond / bareConsumerRecordsPerSecond)),
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
        let bare = try BareConsumer.measure(kafka: kafka, topic: topics.workoutEvents, records: total, logger: logger)

        // ZoneStream as `run` has it (live views on), then off, each its own group.
        var withViews = configuration
        withViews.groupID = "bench-gym-live-views"
        withViews.topics.changelog = changelogPrefix + withViews.groupID
        withViews.publishesLiveSessions = true
        withViews.profilesCatchUpMs = 30_000
        let (rate, _, processor) = try BenchCommand.throughput(configuration: withViews, records: total, logger: logger)
        var withoutViews = withViews
        withoutViews.groupID = "bench-gym"
        withoutViews.topics.changelog = changelogPrefix + withoutViews.groupID
        withoutViews.publishesLiveSessions = false
        let (rateWithoutViews, _, _) = try BenchCommand.throughput(configuration: withoutViews, records: total, logger: logger)

        // What ZoneStream wrote for those records (one run's worth), for the floor to write too.
        let zoneChanges = processor.zoneChanges.load(ordering: .relaxed)
        let finished = processor.workoutsFinished.load(ordering: .relaxed)
        let outputs = zoneChanges + finished + processor.deadLetters.load(ordering: .relaxed)
            + processor.changelogRecords.load(ordering: .relaxed)
        let meanBytes = try meanValueBytes(
            kafka: kafka, topics: [topics.zoneChanges, topics.workoutsFinished, withViews.topics.changelog], logger: logger)
        let floor = try KafkaFloor.measure(
            kafka: kafka, topic: topics.workoutEvents, outputTopic: floorTopic, records: total,
            outputs: KafkaFloor.Outputs(count: outputs, meanBytes: meanBytes),
            commitIntervalMs: configuration.commitIntervalMs, logger: logger)
        let perMillion = 1_000_000 / Double(max(total, 1))
        return Figures(
            mix: mix, bareConsumerRecordsPerSecond: bare, floorRecordsPerSecond: floor, zoneStreamRecordsPerSecond: rate,
            zoneStreamWithoutLiveViewsRecordsPerSecond: rateWithoutViews,
            zoneChangesPerMillionRecords: Double(zoneChanges) * perMillion,
            finishedWorkoutsPerMillionRecords: Double(finished) * perMillion, outputRecords: outputs, outputMeanBytes: meanBytes)
    }

    /// The mean value size over up to 20,000 records read from the start of `topics`.
    static func meanValueBytes(kafka: KafkaConfiguration, topics: [String], logger: Logger) throws -> Int {
        let consumer = try KafkaConsumer(configuration: kafka, groupID: nil, logger: logger)
        defer { consumer.close() }
        var partitions: [TopicPartition] = []
        for topic in topics {
            for partition in 0..<Int32(try consumer.partitionCount(topic: topic)) {
                partitions.append(TopicPartition(topic: topic, partition: partition, offset: TopicPartition.beginning))
            }
        }
        try consumer.assign(partitions)
        var count = 0
        var bytes = 0
        let deadline = Date().addingTimeInterval(10)
        while count < 20_000 && Date() < deadline {
            consumer.poll(timeoutMs: 50) { record in
                count += 1
                bytes += record.value?.count ?? 0
            }
        }
        return count == 0 ? 0 : bytes / count
    }
}

import Foundation
import Logging
import ZoneKafka

/// A reader of every partition of some topics (by default the outputs) from the beginning,
/// with no group.
final class OutputReader {
    static let topics = ["workouts-finished", "zone-changes", "target-changes", "person-summaries", "class-summaries"]
    let consumer: KafkaConsumer
    let partitions: [TopicPartition]
    private(set) var recordsRead = 0

    init(kafka: KafkaConfiguration, logger: Logger, isolation: String, topics: [String] = OutputReader.topics) throws {
        consumer = try KafkaConsumer(
            configuration: kafka, groupID: nil, logger: logger, properties: ["isolation.level": isolation])
        var partitions: [TopicPartition] = []
        for topic in topics {
            for partition in 0..<Int32(try consumer.partitionCount(topic: topic)) {
                partitions.append(TopicPartition(topic: topic, partition: partition, offset: TopicPartition.beginning))
            }
        }
        self.partitions = partitions
        try consumer.assign(partitions)
    }

    /// The high watermark of every partition now; a partition with nothing in it (its low
    /// watermark at its high) is left out, as there is nothing to read up to.
    func endOffsets() throws -> [TopicPartition: Int64] {
        var ends: [TopicPartition: Int64] = [:]
        for partition in partitions {
            let marks = try consumer.watermarks(partition)
            guard marks.high > marks.low else { continue }
            ends[TopicPartition(topic: partition.topic, partition: partition.partition)] = marks.high
        }
        return ends
    }

    /// Polls until this reader's position reaches `ends` in every partition named there (or
    /// the deadline); returns whether it did.
    func readUntil(_ ends: [TopicPartition: Int64], deadline: Date, _ body: (KafkaRecord) -> Void) -> Bool {
        let waitedFor = partitions.filter { ends[TopicPartition(topic: $0.topic, partition: $0.partition)] != nil }
        while Date() < deadline {
            let positions = (try? consumer.positions(waitedFor)) ?? []
            let reached = positions.allSatisfy {
                $0.offset >= (ends[TopicPartition(topic: $0.topic, partition: $0.partition)] ?? 0)
            }
            if reached && positions.count == waitedFor.count { return true }
            poll(body)
        }
        return false
    }

    func poll(_ body: (KafkaRecord) -> Void) {
        consumer.poll(timeoutMs: 100) { record in
            recordsRead += 1
            body(record)
        }
    }

    func close() { consumer.close() }
}

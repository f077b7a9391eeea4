import Foundation
import Logging
import Synchronization
import ZoneKafka

/// Resets a consumer group of ZoneStream as Kafka Streams' application reset tool does: the
/// tool joins the group itself, so it learns whether anyone else is a member (it is then
/// given only some of the partitions, and refuses), sets the group's committed input offsets,
/// and leaves. Works on any broker that runs consumer groups (no admin API needed).
struct GroupReset {
    /// One partition's committed offset before and after.
    struct Change {
        let partition: TopicPartition
        let before: Int64
    }

    let kafka: KafkaConfiguration
    /// The group member properties ZoneStream's instances use (session timeout, heartbeats).
    let memberProperties: [String: String]
    let logger: Logger

    /// Where the group starts reading again.
    enum Target {
        case earliest
        case latest
        case time(Int64)
    }

    /// Joins `group` on `topic`, checks it is the only member, and commits `target` for every
    /// partition (unless `dryRun`); returns what changed.
    func reset(group: String, topic: String, to target: Target, dryRun: Bool) throws -> [Change] {
        let consumer = try KafkaConsumer(
            configuration: kafka, groupID: group, logger: logger,
            properties: memberProperties.merging(["enable.auto.commit": "false"]) { _, new in new })
        defer { consumer.close() }
        let partitionCount = try consumer.partitionCount(topic: topic)
        let watch = AssignmentWatch()
        try consumer.subscribe([topic], listener: watch)
        let deadline = Date().addingTimeInterval(60)
        while watch.assigned == nil && Date() < deadline { consumer.poll(timeoutMs: 100) }
        guard let assigned = watch.assigned else {
            throw CommandFailure(description: "joining group \(group) took over 60 s; is the broker busy?")
        }
        guard assigned.count == partitionCount else {
            throw CommandFailure(
                description:
                    "group \(group) has other members (this tool was given \(assigned.count) of \(partitionCount) partitions of \(topic)): stop every instance of the group first"
            )
        }
        let partitions = (0..<Int32(partitionCount)).map { TopicPartition(topic: topic, partition: $0) }
        let before = try consumer.committed(partitions)
        let after = try targetOffsets(partitions, target, consumer)
        if !dryRun { try consumer.commit(after) }
        return zip(before, after).map { Change(partition: $1, before: $0.offset) }
    }

    private func targetOffsets(_ partitions: [TopicPartition], _ target: Target, _ consumer: KafkaConsumer) throws
        -> [TopicPartition]
    {
        switch target {
        case .earliest, .latest:
            return try partitions.map { partition in
                let marks = try consumer.watermarks(partition)
                var offset = partition
                offset.offset = { if case .earliest = target { marks.low } else { marks.high } }()
                return offset
            }
        case .time(let ms):
            return try consumer.offsets(
                forTimes: partitions.map { TopicPartition(topic: $0.topic, partition: $0.partition, offset: ms) })
        }
    }

    /// Writes a tombstone for every key that holds a value in `topic` (a compacted state
    /// changelog), so a restore finds nothing; returns how many (none written when `dryRun`).
    func clearState(topic: String, dryRun: Bool) throws -> Int {
        let reader = try OutputReader(kafka: kafka, logger: logger, isolation: "read_committed", topics: [topic])
        let ends = try reader.endOffsets()
        var held: [Int32: Set<[UInt8]>] = [:]
        let complete = reader.readUntil(ends, deadline: Date().addingTimeInterval(300)) { record in
            guard let key = record.key.map(Array.init) else { return }
            if record.value == nil {
                held[record.partition, default: []].remove(key)
            } else {
                held[record.partition, default: []].insert(key)
            }
        }
        reader.close()
        guard complete else { throw CommandFailure(description: "reading \(topic) to its end took over 300 s") }
        let count = held.values.reduce(0) { $0 + $1.count }
        guard !dryRun, count > 0 else { return count }
        let producer = try KafkaProducer(configuration: kafka)
        let tracker = DeliveryTracker()
        for (partition, keys) in held {
            for key in keys {
                try producer.produce(topic: topic, key: key, value: nil, tracker: tracker, partition: partition)
            }
        }
        try producer.flush(timeoutMs: 60_000)
        guard tracker.failedCount == 0 else {
            throw CommandFailure(
                description: "\(tracker.failedCount) tombstones refused by \(topic): \(tracker.lastError ?? "")")
        }
        return count
    }
}

/// Records the partitions the group gave the reset tool.
private final class AssignmentWatch: RebalanceListener, Sendable {
    private let partitions = Mutex<[TopicPartition]?>(nil)

    var assigned: [TopicPartition]? { partitions.withLock { $0 } }

    func assigned(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        self.partitions.withLock { $0 = partitions }
    }

    func revoked(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        self.partitions.withLock { $0 = nil }
    }
}

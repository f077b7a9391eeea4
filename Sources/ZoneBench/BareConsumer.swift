import Foundation
import Logging
import ZoneKafka

/// The ceiling: a consumer-group member that batch-consumes every record from one queue
/// (the same librdkafka path ZoneStream's workers use) and does nothing with them.
final class BareConsumer: RebalanceListener, @unchecked Sendable {
    // @unchecked: `queue` is set before subscribe and only read afterwards.
    var queue: KafkaQueue?

    func assigned(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        guard let queue else { return }
        for partition in partitions { consumer.forward(partition, to: queue) }
    }

    func revoked(_ partitions: [TopicPartition], consumer: KafkaConsumer) {}

    /// Records per second from the first record to the last, and the timeline.
    static func measure(kafka: KafkaConfiguration, topic: String, records: Int, logger: Logger) throws -> (rate: Double, timeline: [[Double]]) {
        let consumer = try KafkaConsumer(configuration: kafka, groupID: "bench-bare-" + topic, logger: logger)
        let listener = BareConsumer()
        listener.queue = consumer.makeQueue(batchSize: 4096)
        try consumer.subscribe([topic], listener: listener)
        var count = 0
        var first: Date?
        var bytes = 0
        var timeline = ThroughputTimeline()
        let deadline = Date().addingTimeInterval(600)
        while count < records && Date() < deadline {
            consumer.poll(timeoutMs: 0)
            listener.queue?.consumeBatch(timeoutMs: 100) { record in
                bytes &+= record.value?.count ?? 0
                count += 1
            }
            if first == nil && count > 0 { first = Date() }
            timeline.note(count: count)
        }
        timeline.note(count: count, final: true)
        let elapsed = Date().timeIntervalSince(first ?? Date())
        consumer.close()
        _ = bytes
        return (Double(count) / max(elapsed, 0.001), timeline.points)
    }
}

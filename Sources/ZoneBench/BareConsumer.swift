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

    /// The consumer properties of a baseline: pre-fetch limits that a client this fast never
    /// reaches. Once a limit is reached, librdkafka 2.0 stops fetching until its fetcher thread
    /// wakes again, up to a second later; ZoneStream's limits (64 MB and 1,000,000 records per
    /// worker queue) hold about that second of its work, but the bare consumer and the floor
    /// read several times faster, emptied their queue in a fraction of it and then read nothing:
    /// their timelines fell to zero for 0.3-0.5 s about every second, and their rates measured
    /// the wait instead of the I/O. These limits (librdkafka's largest message count, 1 GB)
    /// hold more than a second of either.
    static let properties = [
        "queued.min.messages": "10000000",
        "queued.max.messages.kbytes": "1048576",
    ]

    /// A baseline's consumer group for its `run`-th run: each run reads every record again.
    static func groupID(_ base: String, run: Int) -> String { run > 1 ? "\(base)-\(run)" : base }

    /// Records per second from the first record to the last (with their CPU), and the timeline.
    /// `run` tells a second run of the same topic from the first (each reads in a group of its own).
    static func measure(
        kafka: KafkaConfiguration, topic: String, records: Int, run: Int = 1, logger: Logger
    ) throws -> (cost: ClientCost, timeline: [[Double]]) {
        let consumer = try KafkaConsumer(
            configuration: kafka, groupID: groupID("bench-bare-" + topic, run: run), logger: logger,
            properties: properties)
        let listener = BareConsumer()
        listener.queue = consumer.makeQueue(batchSize: 4096)
        try consumer.subscribe([topic], listener: listener)
        var count = 0
        var window = RateWindow(total: records)
        var bytes = 0
        var timeline = ThroughputTimeline()
        let deadline = Date().addingTimeInterval(600)
        while count < records && Date() < deadline {
            consumer.poll(timeoutMs: 0)
            listener.queue?.consumeBatch(timeoutMs: 100) { record in
                bytes &+= record.value?.count ?? 0
                count += 1
            }
            window.note(count: count)
            timeline.note(count: count)
        }
        timeline.note(count: count, final: true)
        let cost = window.cost()
        consumer.close()
        _ = bytes
        return (cost, timeline.points)
    }
}

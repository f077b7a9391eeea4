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

    /// The consumer properties of a baseline that reads into one queue what ZoneStream's
    /// `workers` read into one queue each: their pre-fetch limits added up. With one worker's
    /// limit the baseline's queue filled while its fetches ran ahead of it, librdkafka 2.0
    /// stopped fetching for a whole second, and the baseline read nothing meanwhile: the floor
    /// stalled 0.3 s in some runs and measured 0.9 M records/s instead of 1.6-2.2 M.
    static func properties(workers: Int) -> [String: String] {
        let perQueue = KafkaConsumer.defaultProperties["queued.max.messages.kbytes"].flatMap(Int.init) ?? 65_536
        return ["queued.max.messages.kbytes": String(perQueue * max(1, workers))]
    }

    /// A baseline's consumer group for its `run`-th run: each run reads every record again.
    static func groupID(_ base: String, run: Int) -> String { run > 1 ? "\(base)-\(run)" : base }

    /// Records per second from the first record to the last (with their CPU), and the timeline.
    /// `run` tells a second run of the same topic from the first (each reads in a group of its own).
    static func measure(
        kafka: KafkaConfiguration, topic: String, records: Int, workers: Int, run: Int = 1, logger: Logger
    ) throws -> (cost: ClientCost, timeline: [[Double]]) {
        let consumer = try KafkaConsumer(
            configuration: kafka, groupID: groupID("bench-bare-" + topic, run: run), logger: logger,
            properties: properties(workers: workers))
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

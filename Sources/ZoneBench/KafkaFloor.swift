import Foundation
import Logging
import ZoneKafka

/// The Kafka I/O floor: the least Kafka work ZoneStream's job implies, and nothing else. A
/// consumer-group member batch-consumes the same records from one queue and, spread evenly
/// over them, produces as many output records, with the same bytes, as ZoneStream produced
/// (zone changes, finished workouts, changelog records, dead letters), committing offsets
/// every `commitIntervalMs` once what was produced before is delivered. `run` tells a second
/// run from the first (each reads in a group of its own).
enum KafkaFloor {
    struct Outputs {
        var count: Int
        /// The values to produce, in turn (ZoneStream's own outputs: ``GymRun/outputSample``).
        var values: [[UInt8]]

        var meanBytes: Int { values.isEmpty ? 0 : values.reduce(0) { $0 + $1.count } / values.count }
    }

    static func measure(
        kafka: KafkaConfiguration, topic: String, outputTopic: String, records: Int, outputs: Outputs,
        commitIntervalMs: Int, run: Int = 1, broker: Int32? = nil, logger: Logger
    ) throws -> (cost: ClientCost, timeline: [[Double]]) {
        let consumer = try KafkaConsumer(
            configuration: kafka, groupID: BareConsumer.groupID("bench-floor", run: run), logger: logger,
            properties: BareConsumer.properties)
        let producer = try KafkaProducer(configuration: kafka)
        // Looked up once and fed the record's key in place, as ZoneStream's workers produce.
        let output = producer.topic(outputTopic)
        let listener = BareConsumer()
        listener.queue = consumer.makeQueue(batchSize: 4096)
        try consumer.subscribe([topic], listener: listener)
        let values = outputs.values.isEmpty ? [[UInt8(ascii: "x")]] : outputs.values
        let tracker = DeliveryTracker()
        var next: [Int32: Int64] = [:]
        var count = 0
        var produced = 0
        var window = RateWindow(total: records, broker: broker)
        var lastSeal = Date()
        var sealed: (offsets: [TopicPartition], produced: Int)?
        var timeline = ThroughputTimeline()
        let deadline = Date().addingTimeInterval(600)
        while count < records && Date() < deadline {
            consumer.poll(timeoutMs: 0)
            listener.queue?.consumeBatch(timeoutMs: 100) { record in
                count += 1
                next[record.partition] = record.offset + 1
                // Outputs in proportion: after `count` inputs, count * outputs / records are out.
                while produced < count * outputs.count / max(records, 1) {
                    values[produced % values.count].withUnsafeBytes { value in
                        try? producer.produce(to: output, key: record.key, value: value, tracker: tracker)
                    }
                    produced += 1
                }
            }
            window.note(count: count)
            timeline.note(count: count)
            producer.pollDeliveryReports(timeoutMs: 0)
            // Like ZoneStream's commit epochs: seal the offsets read so far every interval, and
            // commit them once the outputs produced before the seal are delivered.
            if sealed == nil && Date().timeIntervalSince(lastSeal) * 1000 >= Double(commitIntervalMs) && !next.isEmpty {
                sealed = (next.map { TopicPartition(topic: topic, partition: $0.key, offset: $0.value) }, produced)
                lastSeal = Date()
            }
            if let epoch = sealed, tracker.deliveredCount + tracker.failedCount >= epoch.produced {
                try? consumer.commit(epoch.offsets)
                sealed = nil
            }
        }
        try producer.flush(timeoutMs: 60_000)
        let cost = window.cost()
        timeline.note(count: count, final: true)
        if !next.isEmpty {
            try? consumer.commit(next.map { TopicPartition(topic: topic, partition: $0.key, offset: $0.value) })
        }
        consumer.close()
        return (cost, timeline.points)
    }
}

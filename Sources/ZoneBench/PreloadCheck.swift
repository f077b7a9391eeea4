import Logging
import ZoneKafka

/// Whether the broker kept every preloaded record. The embedded broker keeps about 5 MB per
/// partition and drops the oldest batches past it; the clients would then wait for records
/// that are gone, until their deadline.
enum PreloadCheck {
    /// Throws, naming `--records` and `--partitions`, when `topic` holds fewer than `records`
    /// records from its start.
    static func requireKept(records: Int, topic: String, kafka: KafkaConfiguration, logger: Logger) throws {
        let consumer = try KafkaConsumer(configuration: kafka, groupID: nil, logger: logger)
        defer { consumer.close() }
        var kept = 0
        for partition in 0..<Int32(try consumer.partitionCount(topic: topic)) {
            let marks = try consumer.watermarks(TopicPartition(topic: topic, partition: partition))
            guard marks.low == 0 else {
                throw BenchError(
                    "the broker dropped the oldest records of \(topic) [\(partition)] (it starts at offset \(marks.low)): the \(records) records preloaded do not fit its partitions; lower --records or raise --partitions"
                )
            }
            kept += Int(marks.high)
        }
        guard kept >= records else {
            throw BenchError("\(topic) holds \(kept) of the \(records) records preloaded (--records)")
        }
    }
}

import CRdKafka
import Logging

/// The one owner of an `rd_kafka_t`: creates it in `init`, destroys it in `deinit`.
///
/// `@unchecked Sendable`: librdkafka handles are thread-safe for the calls this layer makes
/// (produce, poll, queue consumption, commit), and the pointer never changes after init.
final class RDKafkaClient: @unchecked Sendable {
    let handle: OpaquePointer

    /// The client's name (`rd_kafka_name`), under which its log lines find `logger`.
    let name: String

    /// - Parameter logger: where librdkafka's log lines of this client go (nil: a
    ///   `librdkafka` logger).
    init(type: rd_kafka_type_t, configuration: OpaquePointer, logger: Logger?) throws(KafkaError) {
        var errorText = [CChar](repeating: 0, count: 512)
        guard let handle = rd_kafka_new(type, configuration, &errorText, errorText.count) else {
            // rd_kafka_new leaves the configuration to the caller on failure.
            rd_kafka_conf_destroy(configuration)
            let text = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw KafkaError(message: text, operation: "creating a client")
        }
        self.handle = handle
        name = String(cString: rd_kafka_name(handle))
        if let logger { LibrdkafkaLog.register(logger, client: name) }
    }

    deinit {
        rd_kafka_destroy(handle)
        LibrdkafkaLog.unregister(client: name)
    }

    /// Serves queued callbacks (delivery reports, errors, statistics).
    func poll(timeoutMs: Int32) { rd_kafka_poll(handle, timeoutMs) }

    /// Partition count of a topic from broker metadata.
    func partitionCount(topic: String, timeoutMs: Int32 = 5000) throws(KafkaError) -> Int {
        let topicHandle = rd_kafka_topic_new(handle, topic, nil)
        defer { if let topicHandle { rd_kafka_topic_destroy(topicHandle) } }
        var metadata: UnsafePointer<rd_kafka_metadata>?
        try KafkaError.check(rd_kafka_metadata(handle, 0, topicHandle, &metadata, timeoutMs), "metadata for \(topic)")
        defer { rd_kafka_metadata_destroy(metadata) }
        guard let metadata, metadata.pointee.topic_cnt > 0 else {
            throw KafkaError(message: "no metadata", operation: "metadata for \(topic)")
        }
        let entry = metadata.pointee.topics[0]
        try KafkaError.check(entry.err, "metadata for \(topic)")
        return Int(entry.partition_cnt)
    }

    /// The low and high watermarks of a partition, from the broker.
    func watermarks(topic: String, partition: Int32, timeoutMs: Int32 = 5000) throws(KafkaError) -> (Int64, Int64) {
        var low: Int64 = 0
        var high: Int64 = 0
        try KafkaError.check(
            rd_kafka_query_watermark_offsets(handle, topic, partition, &low, &high, timeoutMs),
            "watermarks of \(topic)/\(partition)")
        return (low, high)
    }
}

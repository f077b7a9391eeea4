import CRdKafka
import NIOConcurrencyHelpers

/// An idempotent producer. Delivery reports are served by ``pollDeliveryReports(timeoutMs:)``
/// (call it from one thread in a loop) and counted in each message's ``DeliveryTracker``.
///
/// `@unchecked Sendable`: producing is thread-safe in librdkafka; topic handles are created
/// under a lock and live as long as the producer.
public final class KafkaProducer: @unchecked Sendable {
    let client: RDKafkaClient
    private let topics = NIOLockedValueBox<[String: OpaquePointer]>([:])

    /// Idempotence (no duplicates or reordering from retries), all replicas acknowledge,
    /// a short linger so records travel in batches; at most 256 MB of undelivered records (a
    /// producer then waits, which holds its worker back rather than growing memory).
    public static let defaultProperties: [String: String] = [
        "enable.idempotence": "true",
        "acks": "all",
        "linger.ms": "5",
        "batch.num.messages": "10000",
        "queue.buffering.max.messages": "1000000",
        "queue.buffering.max.kbytes": "262144",
        "compression.codec": "lz4",
    ]

    public init(configuration: KafkaConfiguration, properties: [String: String] = [:]) throws(KafkaError) {
        let conf = try configuration.makeNativeConfiguration(
            defaults: Self.defaultProperties.merging(properties) { _, new in new })
        rd_kafka_conf_set_dr_msg_cb(conf, deliveryReportCallback)
        client = try RDKafkaClient(type: RD_KAFKA_PRODUCER, configuration: conf, logger: configuration.logger)
    }

    deinit {
        topics.withLockedValue { for handle in $0.values { rd_kafka_topic_destroy(handle) } }
    }

    /// A topic to produce to, looked up once. Producing by name looks the handle up under a
    /// lock, hashing the name, for every record; a worker producing its outputs keeps these.
    /// Valid as long as the producer that made it.
    public struct Topic: @unchecked Sendable {
        // @unchecked: librdkafka's topic handles are thread-safe and live as long as the producer.
        public let name: String
        /// nil when librdkafka refused to make a handle; producing then throws.
        let handle: OpaquePointer?
    }

    /// The topic `name`, for ``produce(to:key:value:tracker:partition:context:header:)``.
    public func topic(_ name: String) -> Topic {
        topics.withLockedValue { cache in
            if let handle = cache[name] { return Topic(name: name, handle: handle) }
            let handle = rd_kafka_topic_new(client.handle, name, nil)
            cache[name] = handle
            return Topic(name: name, handle: handle)
        }
    }

    /// Queues one record (copied), partitioned by key unless `partition` is given. Waits while
    /// librdkafka's queue is full. `context` comes back in a ``DeliveryFailure`` if the record
    /// is refused; a record refused here (too large, unknown topic) throws instead. `header`:
    /// one header to carry (the record is then queued by topic name).
    public func produce(
        topic: String, key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?, tracker: DeliveryTracker?,
        partition: Int32? = nil, context: (any Sendable)? = nil, header: KafkaHeader? = nil
    ) throws(KafkaError) {
        try produce(
            to: self.topic(topic), key: key, value: value, tracker: tracker, partition: partition, context: context,
            header: header)
    }

    /// ``produce(topic:key:value:tracker:partition:context:header:)`` to a topic looked up before.
    public func produce(
        to topic: Topic, key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?, tracker: DeliveryTracker?,
        partition: Int32? = nil, context: (any Sendable)? = nil, header: KafkaHeader? = nil
    ) throws(KafkaError) {
        guard let handle = topic.handle else {
            throw KafkaError(message: "cannot create topic handle", operation: "producing to \(topic.name)")
        }
        let receipt = tracker.map {
            Unmanaged.passRetained(DeliveryReceipt.make(tracker: $0, context: context, partition: partition))
        }
        tracker?.willProduce()
        while true {
            let error: rd_kafka_resp_err_t
            if let header {
                error = send(
                    topic.name, partition: partition, key: key, value: value, header: header,
                    opaque: receipt?.toOpaque())
            } else {
                let result = rd_kafka_produce(
                    handle, partition ?? RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY,
                    UnsafeMutableRawPointer(mutating: value?.baseAddress), value?.count ?? 0,
                    key?.baseAddress, key?.count ?? 0, receipt?.toOpaque())
                error = result == 0 ? RD_KAFKA_RESP_ERR_NO_ERROR : rd_kafka_last_error()
            }
            if error == RD_KAFKA_RESP_ERR_NO_ERROR { return }
            if error == RD_KAFKA_RESP_ERR__QUEUE_FULL {
                rd_kafka_poll(client.handle, 10)
                continue
            }
            // Refused before it was queued: no delivery report will come, so release it here.
            receipt?.release()
            tracker?.cancelled()
            throw KafkaError(error, operation: "producing \(value?.count ?? 0) bytes to \(topic.name)")
        }
    }

    /// Convenience for byte arrays.
    public func produce(
        topic: String, key: [UInt8]?, value: [UInt8]?, tracker: DeliveryTracker?, partition: Int32? = nil,
        context: (any Sendable)? = nil, header: KafkaHeader? = nil
    ) throws(KafkaError) {
        try Self.lend(key) { (key) throws(KafkaError) in
            try Self.lend(value) { (value) throws(KafkaError) in
                try produce(
                    topic: topic, key: key, value: value, tracker: tracker, partition: partition, context: context,
                    header: header)
            }
        }
    }

    private static func lend(
        _ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) throws(KafkaError) -> Void
    ) throws(KafkaError) {
        guard let bytes else { return try body(nil) }
        let lent: Result<Void, KafkaError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(KafkaError) in try body(buffer) }
        }
        try lent.get()
    }

    /// Serves delivery reports for up to `timeoutMs`.
    public func pollDeliveryReports(timeoutMs: Int32) { client.poll(timeoutMs: timeoutMs) }

    /// Waits until every queued record is delivered or `timeoutMs` passes.
    public func flush(timeoutMs: Int32) throws(KafkaError) {
        try KafkaError.check(rd_kafka_flush(client.handle, timeoutMs), "flushing")
    }

    /// Records queued in librdkafka and not yet delivered.
    public var queueLength: Int { Int(rd_kafka_outq_len(client.handle)) }

    /// Partition count of a topic, from metadata.
    public func partitionCount(topic: String) throws(KafkaError) -> Int { try client.partitionCount(topic: topic) }
}

/// Counts each delivery in its message's tracker; a refused message is copied into a
/// ``DeliveryFailure`` (the payload is only valid during this call).
private func deliveryReportCallback(
    _ handle: OpaquePointer?, _ message: UnsafePointer<rd_kafka_message_t>?, _ opaque: UnsafeMutableRawPointer?
) {
    guard let message, let opaque = message.pointee._private else { return }
    let owned = Unmanaged<DeliveryReceipt>.fromOpaque(opaque)
    // Borrowed, not retained: once parked, the receipt may be freed by another thread at once.
    guard let tracker = owned._withUnsafeGuaranteedRef({ $0.detachTracker() }) else { return owned.release() }
    let error = message.pointee.err
    guard error != RD_KAFKA_RESP_ERR_NO_ERROR else {
        tracker.reported(failure: nil, latencyMicroseconds: rd_kafka_message_latency(message))
        // Freed by the thread that produces next with this tracker, which made it: freed
        // here, it went back to that thread's heap under its lock, which the producing
        // thread's own allocations then waited on.
        return tracker.park(owned)
    }
    let receipt = owned.takeRetainedValue()
    let topic = message.pointee.rkt.map { String(cString: rd_kafka_topic_name($0)) } ?? ""
    func bytes(_ pointer: UnsafeMutableRawPointer?, _ count: Int) -> [UInt8]? {
        guard let pointer else { return nil }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
    let failure = DeliveryFailure(
        topic: topic, partition: receipt.header.partition,
        key: bytes(message.pointee.key, message.pointee.key_len),
        value: bytes(message.pointee.payload, message.pointee.len) ?? [],
        error: KafkaError(error, operation: "delivering \(message.pointee.len) bytes to \(topic)"),
        context: receipt.header.context)
    tracker.reported(failure: failure)
}

import CRdKafka

/// The one owner of an `rd_kafka_queue_t`. A worker thread consumes its own queue in
/// batches; partitions' queues are forwarded into it, so no Swift-side hand-off is needed.
///
/// `@unchecked Sendable`: librdkafka queues are thread-safe; by convention only the owning
/// worker consumes from it, other threads only forward partitions into it.
public final class KafkaQueue: @unchecked Sendable {
    let handle: OpaquePointer
    /// Keeps the client alive as long as the queue.
    private let client: RDKafkaClient
    private var batch: [UnsafeMutablePointer<rd_kafka_message_t>?]

    init(client: RDKafkaClient, handle: OpaquePointer, batchSize: Int) {
        self.client = client
        self.handle = handle
        self.batch = Array(repeating: nil, count: batchSize)
    }

    deinit { rd_kafka_queue_destroy(handle) }

    /// Waits up to `timeoutMs` for records and calls `body` with each, in order per partition.
    /// Records are destroyed after `body` returns. Returns how many were consumed.
    @discardableResult
    public func consumeBatch(timeoutMs: Int32, _ body: (KafkaRecord) -> Void) -> Int {
        let count = batch.withUnsafeMutableBufferPointer { buffer in
            rd_kafka_consume_batch_queue(handle, timeoutMs, buffer.baseAddress, buffer.count)
        }
        guard count > 0 else { return 0 }
        for index in 0..<count {
            guard let message = batch[index] else { continue }
            body(KafkaRecord(message))
            rd_kafka_message_destroy(message)
        }
        return count
    }
}

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

    /// Waits up to `timeoutMs` for the first record, then takes every record already there, up
    /// to the batch size, and calls `body` with each, in order per partition. Records are
    /// destroyed after `body` returns. Returns how many were consumed.
    ///
    /// librdkafka 2.0's `rd_kafka_consume_batch_queue` returns only when the batch is full or
    /// the timeout has passed, so a batch of a quiet stream waited out the whole timeout: that
    /// wait was most of a sample's latency. Here the wait ends with the first record.
    @discardableResult
    public func consumeBatch(timeoutMs: Int32, _ body: (KafkaRecord) -> Void) -> Int {
        var count = takeAvailable()
        if count == 0 && timeoutMs > 0 {
            guard let first = rd_kafka_consume_queue(handle, timeoutMs) else { return 0 }
            batch[0] = first
            count = 1 + takeAvailable(from: 1)
        }
        for index in 0..<count {
            guard let message = batch[index] else { continue }
            body(KafkaRecord(message))
            rd_kafka_message_destroy(message)
        }
        return count
    }

    /// Moves the records already in the queue into `batch` from `start` on, without waiting.
    private func takeAvailable(from start: Int = 0) -> Int {
        let taken = batch.withUnsafeMutableBufferPointer { buffer in
            rd_kafka_consume_batch_queue(handle, 0, buffer.baseAddress.map { $0 + start }, buffer.count - start)
        }
        return max(0, taken)
    }
}

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
    /// The records of the last batch its consumer stopped before (``takeBatch(timeoutMs:_:)``),
    /// delivered first at the next call.
    private var retained = 0..<0

    init(client: RDKafkaClient, handle: OpaquePointer, batchSize: Int) {
        self.client = client
        self.handle = handle
        self.batch = Array(repeating: nil, count: batchSize)
    }

    deinit {
        for index in retained {
            if let message = batch[index] { rd_kafka_message_destroy(message) }
        }
        rd_kafka_queue_destroy(handle)
    }

    /// Records waiting in the queue, readable from any thread (librdkafka's count).
    public var length: Int { Int(rd_kafka_queue_length(handle)) }

    /// Waits up to `timeoutMs` for the first record, then takes every record already there, up
    /// to the batch size, and calls `body` with each, in order per partition. Records are
    /// destroyed after `body` returns. Returns how many were consumed.
    ///
    /// librdkafka 2.0's `rd_kafka_consume_batch_queue` returns only when the batch is full or
    /// the timeout has passed, so a batch of a quiet stream waited out the whole timeout: that
    /// wait was most of a sample's latency. Here the wait ends with the first record.
    @discardableResult
    public func consumeBatch(timeoutMs: Int32, _ body: (KafkaRecord) -> Void) -> Int {
        takeBatch(timeoutMs: timeoutMs) { record in
            body(record)
            return true
        }
    }

    /// As ``consumeBatch(timeoutMs:_:)``, but `body` may stop before a record by returning
    /// false: that record and the rest of the batch stay in the queue's hands, delivered first
    /// at the next call, so the consumer can do what it must between two records (take an
    /// assignment, for one) outside the callback. Returns how many records `body` took.
    @discardableResult
    public func takeBatch(timeoutMs: Int32, _ body: (KafkaRecord) -> Bool) -> Int {
        var range = retained
        retained = 0..<0
        if range.isEmpty {
            var count = takeAvailable()
            if count == 0 && timeoutMs > 0 {
                guard let first = rd_kafka_consume_queue(handle, timeoutMs) else { return 0 }
                batch[0] = first
                count = 1 + takeAvailable(from: 1)
            }
            range = 0..<count
        }
        var taken = 0
        for index in range {
            guard let message = batch[index] else { continue }
            guard body(KafkaRecord(message)) else {
                retained = index..<range.upperBound
                return taken
            }
            rd_kafka_message_destroy(message)
            batch[index] = nil
            taken += 1
        }
        return taken
    }

    /// Moves the records already in the queue into `batch` from `start` on, without waiting.
    private func takeAvailable(from start: Int = 0) -> Int {
        let taken = batch.withUnsafeMutableBufferPointer { buffer in
            rd_kafka_consume_batch_queue(handle, 0, buffer.baseAddress.map { $0 + start }, buffer.count - start)
        }
        return max(0, taken)
    }
}

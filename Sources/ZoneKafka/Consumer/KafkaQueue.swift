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
    /// Whether records are loaded into the cache ahead of `body` (see ``prefetch(ahead:count:)``).
    private let prefetchesRecords: Bool

    init(client: RDKafkaClient, handle: OpaquePointer, batchSize: Int, prefetchesRecords: Bool) {
        self.client = client
        self.handle = handle
        self.batch = Array(repeating: nil, count: batchSize)
        self.prefetchesRecords = prefetchesRecords
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
            if prefetchesRecords { prefetch(ahead: index, count: count) }
            guard let message = batch[index] else { continue }
            body(KafkaRecord(message))
            rd_kafka_message_destroy(message)
        }
        return count
    }

    /// Starts loading what the records after `index` will need: the message four ahead, and
    /// the key and value of the one two ahead (whose message was asked for two records ago).
    /// A fetch thread wrote them, often long before, so a worker's first read of each record
    /// waited on memory (the decoder's share of a worker's time was half as large again as
    /// its cost on a record in cache, perf, session 13).
    @inline(__always)
    private func prefetch(ahead index: Int, count: Int) {
        if index + 4 < count, let message = batch[index + 4] { zonestream_prefetch(message) }
        guard index + 2 < count, let message = batch[index + 2] else { return }
        if let value = message.pointee.payload {
            zonestream_prefetch(value)
            zonestream_prefetch(value + 64)
        }
        if let key = message.pointee.key { zonestream_prefetch(key) }
    }

    /// Moves the records already in the queue into `batch` from `start` on, without waiting.
    private func takeAvailable(from start: Int = 0) -> Int {
        let taken = batch.withUnsafeMutableBufferPointer { buffer in
            rd_kafka_consume_batch_queue(handle, 0, buffer.baseAddress.map { $0 + start }, buffer.count - start)
        }
        return max(0, taken)
    }
}

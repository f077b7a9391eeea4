import CRdKafka

/// What a failed transactional call leaves the producer able to do.
public enum TransactionFailure: Sendable, Equatable {
    /// Try the same call again.
    case retriable
    /// Abort the transaction, then go on with a new one.
    case abortRequired
    /// The producer is unusable (fenced by a newer instance with the same transactional.id,
    /// or a fatal broker error); only a new producer can go on.
    case fatal
}

/// A transactional call that failed, with what it means for the caller.
public struct TransactionError: Error, CustomStringConvertible, Sendable {
    public let failure: TransactionFailure
    public let error: KafkaError
    public var description: String { "\(error) [\(failure)]" }
}

extension KafkaProducer {
    /// Producer properties for exactly-once: a transactional.id names this producer across
    /// restarts, so a newer instance with the same id fences the older one (a zombie); a
    /// transaction left open by a producer that died is aborted by the broker after
    /// `timeoutMs` (Kafka Streams' exactly-once default, 10 s; librdkafka's own is 60 s).
    public static func transactionalProperties(id: String, timeoutMs: Int = 10_000) -> [String: String] {
        ["transactional.id": id, "enable.idempotence": "true", "acks": "all", "transaction.timeout.ms": "\(timeoutMs)"]
    }

    /// Registers the transactional.id with the coordinator and fences older producers with it.
    public func initTransactions(timeoutMs: Int32 = 30_000) throws(TransactionError) {
        try Self.check(rd_kafka_init_transactions(client.handle, timeoutMs), "initialising transactions")
    }

    public func beginTransaction() throws(TransactionError) {
        try Self.check(rd_kafka_begin_transaction(client.handle), "beginning a transaction")
    }

    /// Adds the consumer's input offsets to the transaction: they commit with the outputs or not at all.
    public func sendOffsetsToTransaction(
        _ offsets: [TopicPartition], consumer: KafkaConsumer, timeoutMs: Int32 = 30_000
    ) throws(TransactionError) {
        let list: RDKafkaTopicPartitionList
        do {
            list = try RDKafkaTopicPartitionList(offsets)
        } catch {
            throw TransactionError(failure: .fatal, error: error)
        }
        guard let metadata = rd_kafka_consumer_group_metadata(consumer.client.handle) else {
            throw TransactionError(
                failure: .fatal, error: KafkaError(message: "no consumer group metadata", operation: "sending offsets"))
        }
        defer { rd_kafka_consumer_group_metadata_destroy(metadata) }
        try Self.check(
            rd_kafka_send_offsets_to_transaction(client.handle, list.pointer, metadata, timeoutMs),
            "sending offsets to the transaction")
    }

    /// Flushes the transaction's records and commits them with its offsets.
    public func commitTransaction(timeoutMs: Int32 = 60_000) throws(TransactionError) {
        try Self.check(rd_kafka_commit_transaction(client.handle, timeoutMs), "committing a transaction")
    }

    /// Drops everything produced in the transaction; read_committed consumers never see it.
    public func abortTransaction(timeoutMs: Int32 = 60_000) throws(TransactionError) {
        try Self.check(rd_kafka_abort_transaction(client.handle, timeoutMs), "aborting a transaction")
    }

    /// Turns an `rd_kafka_error_t` into a ``TransactionError`` (and frees it).
    private static func check(_ error: OpaquePointer?, _ operation: String) throws(TransactionError) {
        guard let error else { return }
        defer { rd_kafka_error_destroy(error) }
        let failure: TransactionFailure =
            rd_kafka_error_is_fatal(error) != 0
            ? .fatal
            : rd_kafka_error_txn_requires_abort(error) != 0
                ? .abortRequired
                : rd_kafka_error_is_retriable(error) != 0 ? .retriable : .abortRequired
        throw TransactionError(
            failure: failure,
            error: KafkaError(
                code: rd_kafka_error_code(error).rawValue, message: String(cString: rd_kafka_error_string(error)),
                operation: operation))
    }
}

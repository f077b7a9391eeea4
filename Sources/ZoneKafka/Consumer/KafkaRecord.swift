import CRdKafka

/// A borrowed view of one consumed record, valid only inside the batch callback that
/// yields it: key and value point into librdkafka's buffer, nothing is copied.
/// Do not keep it (or its buffers) past that callback.
public struct KafkaRecord {
    let message: UnsafeMutablePointer<rd_kafka_message_t>

    init(_ message: UnsafeMutablePointer<rd_kafka_message_t>) {
        self.message = message
    }

    public var partition: Int32 { message.pointee.partition }
    public var offset: Int64 { message.pointee.offset }

    /// The topic's name (allocates; not for the per-record path).
    public var topic: String { String(cString: rd_kafka_topic_name(message.pointee.rkt)) }

    /// librdkafka's error for this record, if it is an error event rather than a record.
    public var error: KafkaError? {
        let code = message.pointee.err
        guard code != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        return KafkaError(code, operation: "consuming")
    }

    /// The key bytes; nil for a record without a key.
    public var key: UnsafeRawBufferPointer? {
        guard let pointer = message.pointee.key else { return nil }
        return UnsafeRawBufferPointer(start: pointer, count: message.pointee.key_len)
    }

    /// The value bytes; nil for a record without a value (a tombstone).
    public var value: UnsafeRawBufferPointer? {
        guard let pointer = message.pointee.payload else { return nil }
        return UnsafeRawBufferPointer(start: pointer, count: message.pointee.len)
    }

    /// The record's timestamp in milliseconds (create or log-append time), -1 if none.
    public var timestampMs: Int64 {
        var type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        return rd_kafka_message_timestamp(message, &type)
    }
}

extension KafkaRecord {
    /// The value of the record's last header called `name`, nil when it has none (copies; not
    /// for the per-record path).
    public func header(named name: String) -> [UInt8]? {
        withHeader(named: name) { $0.map { Array($0) } }
    }

    /// Whether the record's last header called `name` holds exactly `expected`; nil when the
    /// record has no such header. Copies nothing.
    public func header(named name: String, equals expected: [UInt8]) -> Bool? {
        withHeader(named: name) { $0.map { expected.elementsEqual($0) } }
    }

    /// Lends the bytes of the record's last header called `name` (nil when it has none) to
    /// `body`, valid only during the call.
    private func withHeader<Result>(named name: String, _ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        var headers: OpaquePointer?
        guard rd_kafka_message_headers(message, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR, let headers else {
            return body(nil)
        }
        var value: UnsafeRawPointer?
        var size = 0
        guard rd_kafka_header_get_last(headers, name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR else {
            return body(nil)
        }
        return body(UnsafeRawBufferPointer(start: size > 0 ? value : nil, count: size))
    }
}

import CRdKafka

/// A librdkafka failure turned into a Swift error, with what was being done.
public struct KafkaError: Error, CustomStringConvertible, Sendable {
    /// librdkafka's error code (`rd_kafka_resp_err_t`), or -1 when none applies.
    public let code: Int32
    public let message: String
    public let operation: String

    public init(code: Int32 = -1, message: String, operation: String) {
        self.code = code
        self.message = message
        self.operation = operation
    }

    init(_ error: rd_kafka_resp_err_t, operation: String) {
        self.init(code: error.rawValue, message: String(cString: rd_kafka_err2str(error)), operation: operation)
    }

    /// The error in an `rd_kafka_error_t` (which it frees), nil when there is none.
    init?(taking error: OpaquePointer?, operation: String) {
        guard let error else { return nil }
        defer { rd_kafka_error_destroy(error) }
        self.init(
            code: rd_kafka_error_code(error).rawValue, message: String(cString: rd_kafka_error_string(error)),
            operation: operation)
    }

    /// The error of a result code, nil when it is RD_KAFKA_RESP_ERR_NO_ERROR.
    init?(result error: rd_kafka_resp_err_t, operation: String) {
        guard error != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        self.init(code: error.rawValue, message: String(cString: rd_kafka_err2str(error)), operation: operation)
    }

    public var description: String { "\(operation): \(message) (code \(code))" }

    /// Delivery errors that producing again cannot fix: the broker refused the record for
    /// good (its size, authorization, an invalid record or topic, a policy), or librdkafka
    /// refused it before sending (too large for `message.max.bytes`, an unknown topic).
    public static func isPermanentDeliveryError(_ code: Int32) -> Bool {
        let permanent: [rd_kafka_resp_err_t] = [
            RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE,
            RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE, RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED,
            RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED, RD_KAFKA_RESP_ERR_TOPIC_EXCEPTION,
            RD_KAFKA_RESP_ERR_INVALID_RECORD, RD_KAFKA_RESP_ERR_POLICY_VIOLATION,
            RD_KAFKA_RESP_ERR_INVALID_REQUIRED_ACKS, RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC,
            RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION, RD_KAFKA_RESP_ERR__INVALID_ARG,
        ]
        return permanent.contains { $0.rawValue == code }
    }

    /// Throws when `error` is not RD_KAFKA_RESP_ERR_NO_ERROR: the one place C results become errors.
    static func check(_ error: rd_kafka_resp_err_t, _ operation: String) throws(KafkaError) {
        if let failure = KafkaError(result: error, operation: operation) { throw failure }
    }
}

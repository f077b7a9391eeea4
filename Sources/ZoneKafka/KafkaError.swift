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

    public var description: String { "\(operation): \(message) (code \(code))" }

    /// Throws when `error` is not RD_KAFKA_RESP_ERR_NO_ERROR: the one place C results become errors.
    static func check(_ error: rd_kafka_resp_err_t, _ operation: String) throws(KafkaError) {
        guard error == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(error, operation: operation) }
    }
}

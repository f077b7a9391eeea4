import CRdKafka
import Logging
import NIOConcurrencyHelpers

/// librdkafka's own log lines, sent through swift-log so they follow the owner's log level and
/// format instead of going straight to standard error. Each client logs through the logger of
/// the configuration it was made with (``KafkaConfiguration/logger``), found by the client's
/// name; lines logged before a client is registered, or by a client made without one, use a
/// `librdkafka` logger. Chatty informational lines (connects, disconnects) are logged at debug.
enum LibrdkafkaLog {
    static let fallback = Logger(label: "librdkafka")
    /// Loggers by client name (`rd_kafka_name`), registered by ``RDKafkaClient`` for its life.
    private static let loggers = NIOLockedValueBox<[String: Logger]>([:])

    static func register(_ logger: Logger, client name: String) { loggers.withLockedValue { $0[name] = logger } }

    static func unregister(client name: String) { _ = loggers.withLockedValue { $0.removeValue(forKey: name) } }

    static func logger(client name: String) -> Logger { loggers.withLockedValue { $0[name] } ?? fallback }

    static func level(fromSyslog level: Int32) -> Logger.Level {
        switch level {
        case ...2: .critical
        case 3: .error
        case 4: .warning
        case 5, 6: .debug
        default: .trace
        }
    }

    static func install(on conf: OpaquePointer) {
        rd_kafka_conf_set_log_cb(conf) { handle, level, facility, message in
            let text = message.map { String(cString: $0) } ?? ""
            let name = handle.map { String(cString: rd_kafka_name($0)) } ?? ""
            let facilityName = facility.map { String(cString: $0) } ?? ""
            // One property map feeds producers and consumers alike, so "ignored by this
            // producer" configuration warnings are expected: debug, not warning.
            let logLevel = facilityName == "CONFWARN" ? .debug : LibrdkafkaLog.level(fromSyslog: level)
            LibrdkafkaLog.logger(client: name).log(
                level: logLevel, "\(text)",
                metadata: ["client": "\(name)", "facility": "\(facilityName)", "source": "librdkafka"])
        }
    }
}

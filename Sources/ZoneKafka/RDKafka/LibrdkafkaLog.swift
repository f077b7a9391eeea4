import CRdKafka
import Logging

/// librdkafka's own log lines, sent through swift-log (label `librdkafka`) so they follow the
/// process's log level instead of going straight to standard error. Its chatty
/// informational lines (connects, disconnects) are logged at debug.
enum LibrdkafkaLog {
    static let logger = Logger(label: "librdkafka")

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
            LibrdkafkaLog.logger.log(
                level: logLevel, "\(text)", metadata: ["client": "\(name)", "facility": "\(facilityName)"])
        }
    }
}

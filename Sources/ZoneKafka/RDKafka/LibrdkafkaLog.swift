import CRdKafka
import Dispatch
import Glibc
import Logging
import NIOConcurrencyHelpers

/// librdkafka's own log lines, sent through swift-log so they follow the owner's log level and
/// format instead of going straight to standard error. Each client logs through the logger of
/// the configuration it was made with (``KafkaConfiguration/logger``), found by the client's
/// name; lines logged before a client is registered, or by a client made without one, use a
/// `librdkafka` logger. Chatty informational lines (connects, disconnects) are logged at debug.
/// Warnings and errors are summarised: while a broker is down librdkafka repeats the same
/// complaint many times a second, so each kind (client and facility) is logged at most once
/// per ``summaryIntervalMs``, the next line carrying how many were left out (`repeated`).
enum LibrdkafkaLog {
    static let fallback = Logger(label: "librdkafka")
    /// Loggers by client name (`rd_kafka_name`), registered by ``RDKafkaClient`` for its life.
    private static let loggers = NIOLockedValueBox<[String: Logger]>([:])

    static func register(_ logger: Logger, client name: String) { loggers.withLockedValue { $0[name] = logger } }

    static func unregister(client name: String) { _ = loggers.withLockedValue { $0.removeValue(forKey: name) } }

    static func logger(client name: String) -> Logger { loggers.withLockedValue { $0[name] } ?? fallback }

    static let summaryIntervalMs: UInt64 = 10_000

    /// Per client and facility: when a line was last logged and how many were left out since.
    private static let summaries = NIOLockedValueBox<[String: (lastMs: UInt64, suppressed: Int)]>([:])

    /// Whether a warning or error of this kind is logged now; if so, how many of its kind were
    /// left out since the last one (0: none).
    ///
    /// `nowMs` may be earlier than the last admitted line's: librdkafka logs from several
    /// threads at once, each reading the clock before it takes the lock. Such a line falls
    /// in the current interval; the comparison subtracts nothing, as an unsigned difference
    /// would trap on it, on a librdkafka thread.
    static func admit(kind: String, nowMs: UInt64) -> (admitted: Bool, suppressed: Int) {
        summaries.withLockedValue { summaries in
            if let entry = summaries[kind], nowMs < entry.lastMs + summaryIntervalMs {
                summaries[kind] = (entry.lastMs, entry.suppressed + 1)
                return (false, 0)
            }
            let suppressed = summaries[kind]?.suppressed ?? 0
            summaries[kind] = (nowMs, 0)
            return (true, suppressed)
        }
    }

    /// Unblocks, on the calling thread, the signals a fault raises in that thread itself (a
    /// trap, an abort, a bad access), so a crash there prints the runtime's backtrace. The
    /// signals librdkafka means to keep from its threads (SIGTERM, SIGINT) stay blocked.
    static func unblockFaultSignals() {
        var faults = sigset_t()
        sigemptyset(&faults)
        for signal in [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV] { sigaddset(&faults, signal) }
        pthread_sigmask(SIG_UNBLOCK, &faults, nil)
    }

    static func level(fromSyslog level: Int32) -> Logger.Level {
        switch level {
        case ...2: .critical
        case 3: .error
        case 4: .warning
        case 5, 6: .debug
        default: .trace
        }
    }

    /// The callback runs on librdkafka's own threads, which librdkafka starts with every signal
    /// blocked. A trap on such a thread (Swift's runtime checks raise SIGILL or SIGTRAP) would
    /// kill the process without the runtime's backtrace, since a blocked fault signal is
    /// delivered with its default action; so the callback first unblocks the fault signals on
    /// its thread (``unblockFaultSignals()``).
    static func install(on conf: OpaquePointer) {
        rd_kafka_conf_set_log_cb(conf) { handle, level, facility, message in
            LibrdkafkaLog.unblockFaultSignals()
            let text = message.map { String(cString: $0) } ?? ""
            let name = handle.map { String(cString: rd_kafka_name($0)) } ?? ""
            let facilityName = facility.map { String(cString: $0) } ?? ""
            // One property map feeds producers and consumers alike, so "ignored by this
            // producer" configuration warnings are expected: debug, not warning.
            let logLevel = facilityName == "CONFWARN" ? .debug : LibrdkafkaLog.level(fromSyslog: level)
            var metadata: Logger.Metadata = [
                "client": "\(name)", "facility": "\(facilityName)", "source": "librdkafka",
            ]
            if logLevel >= .warning {
                let nowMs = DispatchTime.now().uptimeNanoseconds / 1_000_000
                let (admitted, suppressed) = LibrdkafkaLog.admit(kind: "\(name)/\(facilityName)", nowMs: nowMs)
                guard admitted else { return }
                if suppressed > 0 { metadata["repeated"] = "\(suppressed)" }
            }
            LibrdkafkaLog.logger(client: name).log(level: logLevel, "\(text)", metadata: metadata)
        }
    }
}

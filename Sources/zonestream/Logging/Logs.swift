import Logging

/// The process's log output: standard error, at one level, as text or JSON lines.
enum Logs {
    enum Format: String {
        /// swift-log's `timestamp level label : key=value message` lines.
        case text
        /// One JSON object per line, for log shippers (see ``JSONLogHandler``).
        case json
    }

    /// Sets up logging once per process and returns the root logger.
    static func bootstrap(level: String, format: Format = .text) -> Logger {
        let parsed = Logger.Level(rawValue: level) ?? .info
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = parsed
                return handler
            case .json:
                var handler = JSONLogHandler(label: label)
                handler.logLevel = parsed
                return handler
            }
        }
        return Logger(label: "zonestream")
    }
}

import Foundation
import Logging

/// Writes each log record as one JSON object on standard error:
/// `{"ts":"2026-11-21T10:00:00.123Z","level":"info","label":"zonestream","message":"…",…metadata}`.
/// Metadata keys become top-level fields (nested values as JSON); `ts`, `level`, `label`,
/// `message` and `source` are reserved and win over metadata of the same name.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    // swift-log 1.6's entry point; the older one forwards here.
    func log(event: LogEvent) {
        var fields: [String: Any] = [:]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged { fields[key] = Self.json(value) }
        fields["ts"] = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        fields["source"] = event.source
        guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }

    static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): "\(convertible)"
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }
}

import Foundation
import Logging

/// Writes each log record as one JSON object on standard error:
/// `{"ts":"2026-11-21T10:00:00.123Z","level":"info","label":"zonestream","message":"…",…metadata}`.
/// `ts` is RFC 3339 in UTC with milliseconds. Metadata keys become top-level fields with
/// their types kept: numbers and booleans logged as `.stringConvertible` are JSON numbers and
/// booleans, arrays and dictionaries are JSON arrays and objects, the rest strings. `ts`,
/// `level`, `label`, `message` and `source` are reserved and win over metadata of that name.
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
        fields["ts"] = Self.timestamp(Date())
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        fields["source"] = event.source
        guard
            var line = try? JSONSerialization.data(
                withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }

    /// RFC 3339 in UTC, milliseconds: `2026-11-23T03:03:25.882Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible):
            switch convertible {
            case let flag as Bool: flag
            case let number as any BinaryInteger: NSNumber(value: Int64(clamping: number))
            case let number as Double where number.isFinite: number
            default: "\(convertible)"
            }
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }
}

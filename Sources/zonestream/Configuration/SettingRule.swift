import Foundation

/// What values a setting accepts; checked for every setting before anything starts.
enum SettingRule: Sendable {
    /// Any text, empty included.
    case text
    /// Any text but the empty one.
    case nonEmpty
    /// A whole number in the range.
    case integer(ClosedRange<Int>)
    /// A whole number in the range, or -1 for "the broker's default".
    case integerOrBrokerDefault(ClosedRange<Int>)
    /// true/false (also yes/no, on/off, 1/0).
    case boolean
    /// One of these words.
    case choice([String])
    /// Empty, or 2 to 8 comma-separated numbers (checked further as zone boundaries).
    case boundaries
    /// Empty, or a secret sent in a header: visible ASCII characters, no whitespace anywhere
    /// (a newline left by a secret file would otherwise make every request fail).
    case secret
    /// Empty, or a name of 1 to 64 letters, digits, `.`, `_` and `-` (part of Kafka ids).
    case identifier
    /// Empty (a name derived from the group), or a name Kafka accepts for a topic: 1 to 249
    /// ASCII letters, digits, `.`, `_` and `-`.
    case topicName

    /// What is allowed, for error messages and `--print-config`.
    var allowed: String {
        switch self {
        case .text: "any text"
        case .nonEmpty: "any text but the empty one"
        case .integer(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .integerOrBrokerDefault(let range):
            "-1 (the broker's default) or a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .boolean: "true or false"
        case .choice(let words): "one of " + words.joined(separator: ", ")
        case .boundaries: "empty, or 2 to 8 increasing numbers > 0 separated by commas"
        case .identifier: "empty, or 1 to 64 letters, digits, '.', '_' and '-'"
        case .topicName: "empty (named after group_id), or 1 to 249 letters, digits, '.', '_' and '-'"
        case .secret: "empty, or visible ASCII characters with no whitespace (check the secret's file for a newline)"
        }
    }

    /// Whether `value` is allowed.
    func accepts(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        switch self {
        case .text: return true
        case .nonEmpty: return !trimmed.isEmpty
        case .integer(let range): return Int(trimmed).map(range.contains) ?? false
        case .integerOrBrokerDefault(let range): return Int(trimmed).map { $0 == -1 || range.contains($0) } ?? false
        case .boolean: return Self.boolean(trimmed) != nil
        case .choice(let words): return words.contains(trimmed)
        case .boundaries:
            guard !trimmed.isEmpty else { return true }
            let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
            return (2...8).contains(parts.count)
                && parts.allSatisfy { Double($0.trimmingCharacters(in: .whitespaces)) != nil }
        case .secret:
            return value.utf8.allSatisfy { (0x21...0x7E).contains($0) }
        case .identifier: return trimmed.utf8.count <= 64 && Self.isKafkaName(trimmed)
        case .topicName: return trimmed.utf8.count <= 249 && Self.isKafkaName(trimmed)
        }
    }

    /// Whether `text` uses only what Kafka allows in topic names and ids: ASCII letters, digits,
    /// `.`, `_` and `-`.
    static func isKafkaName(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
        }
    }

    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }
}

/// Where a setting's value came from, named in errors and by `zonestream run --print-config`.
enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    case defaultValue
    case file(path: String, line: Int?)
    case environment(String)
    case flag(String)

    var description: String {
        switch self {
        case .defaultValue: "default"
        case .file(let path, let line): line.map { "\(path):\($0)" } ?? path
        case .environment(let name): "environment \(name)"
        case .flag(let text): "flag \(text)"
        }
    }
}

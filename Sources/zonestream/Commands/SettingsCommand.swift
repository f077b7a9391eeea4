import ArgumentParser
import Foundation

/// `zonestream settings`: every setting with its default, the values it accepts, its
/// environment variable and its meaning, from the one table the loader uses (``SettingKey``).
/// `--markdown` prints it as the table of docs/reference/settings.md.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "List every setting with its default, the values it accepts and its meaning.")

    @Flag(help: "Print a Markdown table (the one in docs/reference/settings.md).")
    var markdown = false

    func run() {
        print(markdown ? Self.markdownTable() : Self.text())
    }

    static func text() -> String {
        var lines: [String] = []
        for setting in SettingKey.all {
            lines.append("\(setting.key) = \(setting.defaultValue.isEmpty ? "\"\"" : setting.defaultValue)")
            lines.append("    \(setting.help)")
            lines.append("    allowed: \(setting.rule.allowed); environment: \(setting.environmentName)")
        }
        lines.append(
            "\(SettingKey.kafkaPropertyPrefix)<property> = any librdkafka property, passed through (environment: ZONESTREAM_KAFKA_PROPERTIES_<PROPERTY>)"
        )
        return lines.joined(separator: "\n")
    }

    static func markdownTable() -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["| setting | default | allowed | meaning |", "| --- | --- | --- | --- |"]
        for setting in SettingKey.all {
            let value = setting.defaultValue.isEmpty ? "\"\"" : setting.defaultValue
            lines.append(
                "| `\(setting.key)` | `\(cell(value))` | \(cell(setting.rule.allowed)) | \(cell(setting.help)) |")
        }
        lines.append(
            "| `\(SettingKey.kafkaPropertyPrefix)<property>` | | any librdkafka property but those the guarantees rest on | passed through to every Kafka client ([connecting](../how-to/connect-to-your-cluster.md)) |"
        )
        return lines.joined(separator: "\n")
    }
}

import ArgumentParser
import Dispatch
import Foundation
import Logging

/// Options every command that runs the processor shares.
struct SettingsOptions: ParsableArguments {
    @Option(help: "YAML settings file (default: config/zonestream.yaml when present).")
    var config: String?

    @Option(name: .customLong("set"), help: "Override a setting: --set key=value (any key of config/zonestream.yaml).")
    var overrides: [String] = []

    @Option(help: "Kafka bootstrap servers (same as --set kafka.bootstrap_servers=...).")
    var bootstrapServers: String?

    func load() throws -> SettingsLoader {
        var overrides = overrides
        if let bootstrapServers { overrides.append("kafka.bootstrap_servers=\(bootstrapServers)") }
        let file =
            config
            ?? (FileManager.default.fileExists(atPath: "config/zonestream.yaml") ? "config/zonestream.yaml" : nil)
        var environment = ProcessInfo.processInfo.environment
        // The service's secrets file beside its settings (the package's /etc/zonestream/
        // environment, its unit's EnvironmentFile): an operator's tool pointed at the same
        // settings sees the same token, under what the shell exports.
        if let file {
            let secrets = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("environment")
            environment.merge(Self.environmentFile(secrets.path)) { exported, _ in exported }
        }
        return try SettingsLoader(file: file, environment: environment, overrides: overrides)
    }

    /// The `KEY=VALUE` lines of an environment file as systemd reads them (comments and blank
    /// lines skipped, one pair of surrounding quotes removed); empty when it cannot be read.
    static func environmentFile(_ path: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            var value = String(trimmed[trimmed.index(after: equals)...])
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[String(trimmed[..<equals]).trimmingCharacters(in: .whitespaces)] = value
        }
        return values
    }
}

/// Refuses an option's value outside `range` before anything starts, with a message that names
/// the option and what it allows (every command's `validate()` checks its sizes this way).
func requireOption(_ name: String, _ value: Int, in range: ClosedRange<Int>, note: String = "") throws {
    guard range.contains(value) else {
        throw ValidationError("\(name) must be \(range.lowerBound) to \(range.upperBound)\(note)")
    }
}

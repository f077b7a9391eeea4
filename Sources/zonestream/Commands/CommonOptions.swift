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
        return try SettingsLoader(file: file, environment: ProcessInfo.processInfo.environment, overrides: overrides)
    }
}

/// Refuses an option's value outside `range` before anything starts, with a message that names
/// the option and what it allows (every command's `validate()` checks its sizes this way).
func requireOption(_ name: String, _ value: Int, in range: ClosedRange<Int>, note: String = "") throws {
    guard range.contains(value) else {
        throw ValidationError("\(name) must be \(range.lowerBound) to \(range.upperBound)\(note)")
    }
}

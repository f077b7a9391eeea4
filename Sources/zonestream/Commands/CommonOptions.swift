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

    @Option(help: "Kafka bootstrap servers (same as --set kafka.bootstrap_servers=...); none: embedded broker.")
    var bootstrapServers: String?

    func load() throws -> SettingsLoader {
        var overrides = overrides
        if let bootstrapServers { overrides.append("kafka.bootstrap_servers=\(bootstrapServers)") }
        let file = config ?? (FileManager.default.fileExists(atPath: "config/zonestream.yaml") ? "config/zonestream.yaml" : nil)
        return try SettingsLoader(file: file, environment: ProcessInfo.processInfo.environment, overrides: overrides)
    }
}

/// Runs `action` once on SIGINT or SIGTERM (the sources are kept alive for the process).
enum TerminationSignals {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func onTermination(_ action: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: action)
            source.resume()
            sources.append(source)
        }
    }
}

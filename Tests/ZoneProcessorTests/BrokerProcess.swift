import Foundation

/// A `zonestream broker` child process for a test: started with its own topics, stopped by
/// PID when the test is done (also on failure, through `deinit`).
final class BrokerProcess: @unchecked Sendable {
    // @unchecked: the process is only started in init and stopped once.
    let process = Process()
    let bootstrapServers: String

    /// The built `zonestream` executable beside the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("zonestream")
    }

    init(partitions: Int = 4, extraArguments: [String] = []) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zs-broker-\(UUID().uuidString)")
        process.executableURL = Self.executable
        process.arguments = ["broker", "--partitions", "\(partitions)", "--bootstrap-file", file.path] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        var address: String?
        while address == nil && Date() < deadline && process.isRunning {
            address = (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            if address?.isEmpty == true { address = nil }
            if address == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        try? FileManager.default.removeItem(at: file)
        guard let address else {
            process.terminate()
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "broker did not start"])
        }
        bootstrapServers = address
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}

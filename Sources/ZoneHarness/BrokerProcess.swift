public import Foundation

/// A `zonestream broker` child process (for tests and the benchmark): started with the
/// contract's topics, stopped by PID when done (also on failure, through `deinit`).
public final class BrokerProcess: @unchecked Sendable {
    // @unchecked: the process is only started in init and stopped once.
    let process = Process()
    let control = Pipe()
    /// The broker's standard error: librdkafka's logs and the answers to control lines.
    let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("zs-broker-\(UUID().uuidString).log")
    public let bootstrapServers: String
    /// The broker process's id (for the benchmark to read its CPU).
    public var pid: Int32 { process.processIdentifier }

    /// The `zonestream` executable that children run: the one ``executableVariable`` names
    /// when it is set, else the one beside this process (the test bundle's own build, or
    /// `zonestream` itself for its benchmark).
    public static var executable: URL {
        if let path = ProcessInfo.processInfo.environment[executableVariable], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "zonestream")
    }

    /// The environment variable naming another `zonestream` for the children: the test command
    /// sets it to the release build it packages, so the tests' processes run what ships, at
    /// its speed, rather than the debug build. Outside the `ZONESTREAM_` names, which are all
    /// settings (children inherit it).
    public static let executableVariable = "ZS_CHILD_EXECUTABLE"

    /// - Parameter executable: the `zonestream` binary (default: ``executable``).
    public init(partitions: Int = 4, extraArguments: [String] = [], executable: URL = BrokerProcess.executable) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zs-broker-\(UUID().uuidString)")
        process.executableURL = executable
        process.arguments = ["broker", "--partitions", "\(partitions)", "--bootstrap-file", file.path] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = control
        process.environment = ParentWatch.childEnvironment(ProcessInfo.processInfo.environment)
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        // Generous: a broker made with the benchmark's hundred topics, on two cores shared with
        // a whole test run, took over 20 s to listen.
        let deadline = Date().addingTimeInterval(90)
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

    /// Takes mock broker `id` down (connections closed, none accepted) or brings it back,
    /// through the broker's control lines on standard input.
    public func setBroker(_ id: Int, up: Bool) {
        control.fileHandleForWriting.write(Data("\(up ? "up" : "down") \(id)\n".utf8))
    }

    /// Sends one control line (see `zonestream broker`): `leader TOPIC N PARTITIONS`,
    /// `errors N APIKEY COUNT CODE [RTT_MS]`. Waits up to 10 s for the broker to confirm it;
    /// returns false if it did not (the broker's answer is in the error).
    @discardableResult
    public func control(_ line: String) -> Bool {
        control.fileHandleForWriting.write(Data((line + "\n").utf8))
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            if log.contains("broker: ok \(line)\n") { return true }
            if log.contains("broker: \(line): ") { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: logFile)
    }

    deinit { stop() }
}

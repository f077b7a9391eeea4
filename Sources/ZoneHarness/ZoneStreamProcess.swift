public import Foundation
import ZoneProcessor

/// A `zonestream` child process for a test or the board load run: output kept in a temporary
/// file, killed by PID when its owner is done with it (also on failure, through `deinit`).
public final class ZoneStreamProcess: @unchecked Sendable {
    // @unchecked: started in init; signalled and reaped only by the one owner (a test or a run).
    public let process = Process()
    public let logFile: URL


    /// `environment`: variables to set on top of the test's own, less its `ZONESTREAM_*` ones
    /// (which the command would read as settings). `executable`: the `zonestream` binary.
    /// `directory`: where it runs (this process's by default, whose config/zonestream.yaml it reads).
    public init(
        _ arguments: [String], environment: [String: String] = [:], executable: URL = BrokerProcess.executable,
        directory: URL? = nil
    ) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("zs-child-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        if let directory { process.currentDirectoryURL = directory }
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ZONESTREAM_") }
        inherited.merge(environment) { _, new in new }
        process.environment = ParentWatch.childEnvironment(inherited)
        try process.run()
    }

    /// Runs a command to its exit (killed after `seconds`) and returns its status and output.
    public static func runToExit(_ arguments: [String], environment: [String: String] = [:], seconds: Double = 30)
        throws
        -> (status: Int32, output: String)
    {
        let child = try ZoneStreamProcess(arguments, environment: environment)
        if !child.waitForExit(seconds: seconds) { child.signal(SIGKILL) }
        child.process.waitUntilExit()
        return (child.process.terminationStatus, child.output)
    }

    /// A processor instance in `group` against `bootstrap`, committing often, with a short
    /// session timeout so the group notices a killed member quickly. `ownTopics` false: its
    /// internal topics are the default group's, which every test broker has (the embedded one
    /// cannot create topics when asked); true: named after `group`.
    public static func processor(
        bootstrap: String, group: String, extra: [String] = [], environment: [String: String] = [:],
        executable: URL = BrokerProcess.executable, ownTopics: Bool = false
    ) throws -> ZoneStreamProcess {
        try ZoneStreamProcess(
            [
                "run", "--bootstrap-servers", bootstrap, "--set", "group_id=\(group)", "--set",
                "commit_interval_ms=200",
                "--set", "workers=1", "--set", "log_level=info", "--http-port", "0",
                "--set", "kafka.properties.session.timeout.ms=6000", "--set",
                "kafka.properties.heartbeat.interval.ms=500",
            ] + (ownTopics ? [] : defaultGroupTopics) + extra, environment: environment, executable: executable)
    }

    /// Settings naming the internal topics after the default group.
    static var defaultGroupTopics: [String] {
        let topics = Topics()
        return [
            ("changelog", topics.changelog), ("person_workouts", topics.personWorkouts),
            ("person_changelog", topics.personChangelog), ("class_workouts", topics.classWorkouts),
            ("class_changelog", topics.classChangelog),
        ].flatMap { ["--set", "topics.\($0.0)=\($0.1)"] }
    }

    public var pid: Int32 { process.processIdentifier }

    /// The HTTP endpoint's port, from the "http endpoint listening" log line, text
    /// (`port=N`) or JSON (`"port":"N"`) (waits up to 30 s).
    public func httpPort() -> Int? {
        guard waitForOutput("http endpoint listening", seconds: 30) else { return nil }
        let line = output.split(separator: "\n").first { $0.contains("http endpoint listening") } ?? ""
        for marker in ["port=", #""port":"#] {
            guard let range = line.range(of: marker) else { continue }
            return Int(line[range.upperBound...].drop { $0 == "\"" }.prefix { $0.isNumber })
        }
        return nil
    }
    public var isRunning: Bool { process.isRunning }
    /// The exit status once the process has exited; nil while it runs (Foundation traps when
    /// a running process's status is read, which took a whole test run down with it).
    public var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }
    public var output: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// How the process ended, for a failure message ("exit status 0", "signal 9"); nil while
    /// it runs. A child that vanished without a log line tells here whether it was killed.
    public var ending: String? {
        guard !process.isRunning else { return nil }
        switch process.terminationReason {
        case .exit: return "exit status \(process.terminationStatus)"
        case .uncaughtSignal: return "signal \(process.terminationStatus)"
        @unknown default: return "status \(process.terminationStatus)"
        }
    }

    /// Sends `signal` and waits up to `seconds` for the exit; true if it exited in time.
    @discardableResult
    public func signal(_ signal: Int32, waitSeconds seconds: Double = 30) -> Bool {
        guard process.isRunning else { return true }
        kill(pid, signal)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return !process.isRunning
    }

    /// Waits for the process to exit by itself, up to `seconds`.
    public func waitForExit(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !process.isRunning
    }

    /// Waits until the output contains `text`, up to `seconds`.
    public func waitForOutput(_ text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !output.contains(text) && Date() < deadline && process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        return output.contains(text)
    }

    deinit {
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: logFile)
    }
}

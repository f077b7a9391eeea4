import Foundation

/// Runs a program other than `zonestream` to its end (a checker, a script) for a test.
public enum ChildProcess {
    /// Runs `executable` with `arguments` (and `environment` over the test's own) to its exit;
    /// returns its status and what it printed on standard output and error together.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        // Output to a file, read once the program has exited: a pipe's end of file waits for
        // every process holding its write end, and a process another test starts at the same
        // moment can inherit it and live on long after this program is done.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zs-run-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try? handle.close()
        let output = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return (process.terminationStatus, output)
    }
}

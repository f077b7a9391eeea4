import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// A `zonestream broker` and a `zonestream run` started by a parent that is then killed with
/// SIGKILL (as a test's time limit or a stopped benchmark would): both stop by themselves, the
/// processor through its graceful shutdown. Before ``ParentWatch`` they ran on as orphans.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct ParentWatchTests {
    /// A shell that starts both children with itself as their parent, prints their PIDs, and
    /// then waits (as `sleep`, keeping its PID) to be killed.
    static let script = """
        \(ParentWatch.variable)=$$ "$0" broker --partitions 1 --bootstrap-file "$1" >/dev/null 2>&1 </dev/null &
        echo $!
        \(ParentWatch.variable)=$$ "$0" run --embedded --http-port 0 >"$2" 2>&1 </dev/null &
        echo $!
        exec sleep 600
        """

    /// Whether `pid` has exited (gone, or a zombie nobody reaped).
    static func hasExited(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The state follows the command's closing parenthesis.
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[close...].dropFirst(2).first == "Z"
    }

    @Test func childrenStopWhenTheirParentIsKilled() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-parent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bootstrapFile = directory.appendingPathComponent("bootstrap").path
        let runLog = directory.appendingPathComponent("run.log").path

        let parent = Process()
        // The PIDs through a file, not a pipe: reading a pipe blocks while it is empty.
        let pids = directory.appendingPathComponent("pids")
        _ = FileManager.default.createFile(atPath: pids.path, contents: nil)
        parent.executableURL = URL(fileURLWithPath: "/bin/sh")
        parent.arguments = ["-c", Self.script, BrokerProcess.executable.path, bootstrapFile, runLog]
        parent.environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("ZONESTREAM_") && $0.key != ParentWatch.variable
        }
        parent.standardOutput = try FileHandle(forWritingTo: pids)
        try parent.run()
        var children: [pid_t] = []
        // Once seen gone, a child's PID may be another process's (PIDs are reused), so the
        // clean-up kills only children not yet seen to exit.
        var seenExited: Set<pid_t> = []
        defer {
            for child in children where !seenExited.contains(child) && !Self.hasExited(child) { kill(child, SIGKILL) }
            if parent.isRunning { kill(parent.processIdentifier, SIGKILL) }
            parent.waitUntilExit()
        }
        var text = ""
        let reading = Eventually.holds(within: 10) {
            text = (try? String(contentsOf: pids, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").count >= 2
        }
        try #require(reading, "the parent shell printed no child PIDs: \(text)")
        children = text.split(separator: "\n").compactMap { pid_t($0) }
        try #require(children.count == 2)

        // Both are up: the broker wrote its address, the processor was assigned its partitions.
        #expect(Eventually.holds(within: 30) { FileManager.default.fileExists(atPath: bootstrapFile) })
        #expect(
            Eventually.holds(within: 60) {
                ((try? String(contentsOfFile: runLog, encoding: .utf8)) ?? "").contains("partitions assigned")
            })
        #expect(children.allSatisfy { !Self.hasExited($0) })

        kill(parent.processIdentifier, SIGKILL)
        parent.waitUntilExit()
        #expect(
            Eventually.holds(within: 40) {
                seenExited.formUnion(children.filter(Self.hasExited))
                return seenExited.count == children.count
            },
            "children still running 40 s after their parent was killed: \(children.filter { !Self.hasExited($0) })")
        let log = (try? String(contentsOfFile: runLog, encoding: .utf8)) ?? ""
        #expect(log.contains("parent process \(parent.processIdentifier) is gone; stopping"))
    }
}

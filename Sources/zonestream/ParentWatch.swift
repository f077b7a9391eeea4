import Foundation

/// The child's side of the harness's parent watch (ZoneHarness's `ParentWatch`): a
/// `zonestream` started by a test or the benchmark finds its parent's PID in `ZS_PARENT_PID`,
/// and stops itself, SIGTERM then exit after ``gracePeriod``, once that parent is gone. A
/// `zonestream` started any other way has no such variable and watches nothing.
enum ParentWatch {
    /// The variable the harness sets (the same name as ZoneHarness's `ParentWatch.variable`).
    static let variable = "ZS_PARENT_PID"

    /// How long this process has after its SIGTERM before it exits anyway.
    static let gracePeriod: Double = 20

    /// When ``variable`` names a parent, watches it on a thread of its own and stops this
    /// process once the parent is gone (also at once, if it is gone already).
    static func startIfAsked(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let text = environment[variable], let parent = pid_t(text), parent > 1 else { return }
        let thread = Thread {
            while getppid() == parent { Thread.sleep(forTimeInterval: 0.25) }
            FileHandle.standardError.write(Data("zonestream: parent process \(parent) is gone; stopping\n".utf8))
            kill(getpid(), SIGTERM)
            Thread.sleep(forTimeInterval: gracePeriod)
            FileHandle.standardError.write(
                Data("zonestream: not stopped \(Int(gracePeriod)) s after SIGTERM; exiting\n".utf8))
            exit(1)
        }
        thread.name = "zs-parent-watch"
        thread.start()
    }
}

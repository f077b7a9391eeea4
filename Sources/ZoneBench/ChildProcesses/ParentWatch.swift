public import Foundation

/// Child processes that die with the process that started them.
///
/// The tests and the benchmark start `zonestream broker` and `zonestream run` as children and
/// stop them by PID when done. A parent killed by a signal (a test's time limit, a benchmark
/// stopped with Ctrl-C or SIGKILL) never gets to do that, and its children would go on
/// running, holding ports and two shared cores. So a parent names itself in the child's
/// environment (``variable``), and the child, when it sees its parent gone (it has been
/// handed to another process), stops itself the way an operator would: SIGTERM, then exit
/// if it has not stopped within ``gracePeriod``.
///
/// `PR_SET_PDEATHSIG` is not used: it fires when the parent's *thread* that started the child
/// ends, which in a Swift concurrency pool or a test runner is not the parent's end.
public enum ParentWatch {
    /// The environment variable holding the PID of the process the child must not outlive.
    /// Outside the `ZONESTREAM_` names, which are all settings.
    public static let variable = "ZS_PARENT_PID"

    /// How long a child has after its SIGTERM before it exits anyway.
    public static let gracePeriod: Double = 20

    /// The environment for a child of this process: `environment` plus ``variable``.
    public static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.merging([variable: "\(getpid())"]) { _, own in own }
    }

    /// In the child: when ``variable`` names a parent, watches it on a thread of its own and
    /// stops this process once the parent is gone (also at once, if it is gone already).
    /// Does nothing without the variable, or with a value that is not a PID.
    public static func startIfAsked(environment: [String: String] = ProcessInfo.processInfo.environment) {
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

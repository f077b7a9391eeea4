import Foundation

/// Child processes that die with the process that started them.
///
/// Tests and the benchmark start `zonestream broker` and `zonestream run` as children and
/// stop them by PID when done. A parent killed by a signal (a test's time limit, a benchmark
/// stopped with Ctrl-C or SIGKILL) never gets to do that, and its children would go on
/// running, holding ports and two shared cores. So the harness names the parent in each
/// child's environment (``variable``), and `zonestream`, seeing it, watches that parent and
/// stops itself the way an operator would once it is gone (SIGTERM, then exit after a grace
/// period). A process started otherwise has no such variable and watches nothing.
///
/// `PR_SET_PDEATHSIG` is not used: it fires when the parent's *thread* that started the child
/// ends, which in a Swift concurrency pool or a test runner is not the parent's end.
public enum ParentWatch {
    /// The environment variable holding the PID of the process the child must not outlive.
    /// Outside the `ZONESTREAM_` names, which are all settings; `zonestream` reads the same name.
    public static let variable = "ZS_PARENT_PID"

    /// The environment for a child of this process: `environment` plus ``variable``.
    public static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.merging([variable: "\(getpid())"]) { _, own in own }
    }
}

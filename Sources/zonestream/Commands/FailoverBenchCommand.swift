import ArgumentParser
import ZoneBench

/// `zonestream bench failover`: how long membership changes pause live sessions
/// (``FailoverBenchmark``).
struct FailoverBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "failover",
        abstract: "Measure how long scale-out, scale-in, a crash and a frozen broker pause live sessions.")

    @Option(help: "Instances at the start (one more is added and removed by the steps).") var instances = 2
    @Option(help: "Members of the class the load generator runs.") var members = 60
    @Option(help: "Partitions of each topic of the embedded broker.") var partitions = 8
    @Option(help: "Seconds each step is watched.") var stepSeconds = 20
    @Option(help: "Seconds the broker stays frozen.") var brokerPauseSeconds = 5
    @Option(help: "Times the steps are run, each on a fresh broker and group (the results give the median and range).")
    var repeats = 1
    // Not --bootstrap-servers: `bench` itself takes that name, and would take the value.
    @Option(help: "Bootstrap servers of a running cluster to measure instead of an embedded broker.")
    var cluster: String?
    @Option(help: "The cluster's name in the results (with --cluster); its first word names the file.")
    var brokerName = "external"
    @Option(
        help: "The broker process to freeze for the broker step (with --cluster; without it, no such step).")
    var brokerPid: Int32?
    @Option(
        help:
            "Steps to run, comma-separated, in order: scale-out, scale-in, crash (needs a broker with session expiry), broker-pause."
    )
    var steps = FailoverBenchmark.StepKind.allCases.map(\.rawValue).joined(separator: ",")
    // Not --output and --smoke: `bench` itself takes those names, and would take the values.
    @Option(help: "Where to write failover.json.") var results = "benchmarks/results"
    @Flag(
        help:
            "Run the instances exactly once; the check then fails on any repeated output (not on the embedded broker).")
    var exactlyOnce = false
    @Flag(help: "Rebalance cooperatively (cooperative-sticky): only the partitions that move are revoked.")
    var cooperative = false
    @Flag(help: "A small, quick run (for CI): checks the benchmark works, measures nothing meaningful.") var quick =
        false

    func validate() throws {
        try requireOption("--instances", instances, in: 1...8)
        try requireOption("--members", members, in: 1...5_000)
        try requireOption("--partitions", partitions, in: 2...64)
        try requireOption("--step-seconds", stepSeconds, in: 5...600)
        try requireOption("--broker-pause-seconds", brokerPauseSeconds, in: 1...300)
        try requireOption("--repeats", repeats, in: 1...20)
        _ = try stepKinds()
    }

    func stepKinds() throws -> [FailoverBenchmark.StepKind] {
        try steps.split(separator: ",").map { name in
            guard let kind = FailoverBenchmark.StepKind(rawValue: String(name)) else {
                throw ValidationError(
                    "--steps: '\(name)' is not a step (\(FailoverBenchmark.StepKind.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            return kind
        }
    }

    func run() throws {
        var benchmark = FailoverBenchmark()
        benchmark.instances = instances
        benchmark.members = quick ? 8 : members
        benchmark.partitions = quick ? 4 : partitions
        benchmark.stepSeconds = quick ? 8 : stepSeconds
        benchmark.brokerPauseSeconds = quick ? 2 : brokerPauseSeconds
        benchmark.settleSeconds = quick ? 3 : 10
        benchmark.output = results
        benchmark.steps = try stepKinds()
        benchmark.brokerPID = brokerPid
        if let cluster { benchmark.external = (cluster, brokerName) }
        benchmark.smoke = quick
        benchmark.exactlyOnce = exactlyOnce
        benchmark.cooperative = cooperative
        let report = try benchmark.run(runs: quick ? 1 : repeats)
        for check in report.loadgenChecks { print("load generator: \(check)") }
        if !report.allExact { throw ExitCode.failure }
    }
}

public import Foundation

/// `zonestream bench failover`: how long membership changes pause live sessions. Instances of
/// one group run a class from the load generator; one at a time the run adds an instance,
/// stops one (SIGTERM), kills one (SIGKILL) and freezes the broker; for each it measures how
/// long any live session went without its outputs (through the group's `/sessions` on an
/// instance that stays), how long until every session moved on again, and how many changelog
/// records were read back; the load generator's oracle checks every workout at the end.
public struct FailoverBenchmark {
    public var instances = 2
    public var members = 60
    public var partitions = 8
    /// How long each step is watched.
    public var stepSeconds = 20
    /// How long the broker stays frozen.
    public var brokerPauseSeconds = 5
    /// How long the group is left to settle after each step.
    public var settleSeconds = 10
    public var output = "benchmarks/results"
    /// Checks the mechanism in seconds; measures nothing meaningful.
    public var smoke = false
    public var executable = BrokerProcess.executable

    public init() {}

    /// One step's figures.
    public struct Step: Codable, Sendable {
        public let name: String
        /// The longest time any live session went without an output, in seconds.
        public let longestGapSeconds: Double
        /// From the step until the last pause of a session longer than 2.5 s ended: when every
        /// partition was processing again (nil: not within the step).
        public let settledSeconds: Double?
        public let changelogRecordsReread: Int
        public let partitionsKept: Int
        public let partitionsRestored: Int
    }

    public struct Report: Codable, Sendable {
        public let broker: String
        public let instances: Int
        public let members: Int
        public let partitions: Int
        public let sessionTimeoutMs: Int
        public let steps: [Step]
        public let loadgenCheck: String
    }

    public func run() throws -> Report {
        let broker = try BrokerProcess(partitions: partitions, executable: executable)
        defer { broker.stop() }
        var group = FailoverGroup(bootstrap: broker.bootstrapServers, executable: executable)
        for _ in 0..<instances { try group.add() }
        try group.waitUntilReady()
        let stepCount = 4
        let loadgen = try ZoneStreamProcess(
            [
                "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "\(members)",
                "--session-seconds", "3600", "--rate", "\(members)", "--prefix", "failover",
                "--duration-s", "\(stepCount * (stepSeconds + settleSeconds + 5) + 20)", "--check", "--check-timeout-s",
                "120",
            ], executable: executable)
        let freshness = SessionFreshness(port: try group.observerPort())
        freshness.start()
        defer { freshness.stop() }
        _ = LiveSessionCount.wait(port: try group.observerPort(), atLeast: members, seconds: 60)
        Thread.sleep(forTimeInterval: 3)

        var steps: [Step] = []
        steps.append(try watch("scale out", group: &group, freshness) { group in try group.add() })
        steps.append(try watch("scale in (SIGTERM)", group: &group, freshness) { group in group.remove(SIGTERM) })
        try group.add()
        try group.waitUntilReady()
        Thread.sleep(forTimeInterval: 5)
        steps.append(try watch("crash (SIGKILL)", group: &group, freshness) { group in group.remove(SIGKILL) })
        steps.append(
            try watch("broker frozen \(brokerPauseSeconds) s", group: &group, freshness) { _ in
                kill(broker.process.processIdentifier, SIGSTOP)
                Thread.sleep(forTimeInterval: Double(brokerPauseSeconds))
                kill(broker.process.processIdentifier, SIGCONT)
            })
        _ = loadgen.waitForExit(seconds: Double(stepCount * (stepSeconds + settleSeconds + 5) + 200))
        let check = loadgen.output.split(separator: "\n").last { $0.contains("check") } ?? "no check line"
        let report = Report(
            broker: "embedded (zonestream broker)", instances: instances, members: members, partitions: partitions,
            sessionTimeoutMs: 6_000, steps: steps,
            loadgenCheck: loadgen.process.isRunning
                ? "did not finish" : "exit \(loadgen.process.terminationStatus): \(check)")
        try write(report)
        return report
    }

    /// Runs one step and watches the sessions for `stepSeconds` from its start.
    private func watch(
        _ name: String, group: inout FailoverGroup, _ freshness: SessionFreshness,
        _ action: (inout FailoverGroup) throws -> Void
    ) throws -> Step {
        let logMarks = group.logMarks()
        let start = Date()
        try action(&group)
        Thread.sleep(forTimeInterval: max(0, Double(stepSeconds) - Date().timeIntervalSince(start)))
        let window = freshness.window(from: start, to: Date())
        let restores = group.restoresSince(logMarks)
        let step = Step(
            name: name, longestGapSeconds: (window.longestGap * 10).rounded() / 10,
            settledSeconds: window.settled.map { ($0 * 10).rounded() / 10 },
            changelogRecordsReread: restores.records, partitionsKept: restores.kept,
            partitionsRestored: restores.restored)
        print(
            "\(name): longest gap \(step.longestGapSeconds) s, every session moving again after "
                + "\(step.settledSeconds.map { "\($0) s" } ?? "more than the step"), "
                + "\(step.changelogRecordsReread) changelog records re-read, \(step.partitionsKept) partitions kept, "
                + "\(step.partitionsRestored) restored")
        // Let the group settle before the next step.
        Thread.sleep(forTimeInterval: Double(settleSeconds))
        return step
    }

    private func write(_ report: Report) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try encoder.encode(report).write(
            to: directory.appendingPathComponent(smoke ? "failover-smoke.json" : "failover.json"))
    }
}

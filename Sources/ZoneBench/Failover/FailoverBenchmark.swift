public import Foundation
import ZoneHarness

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
    /// A running cluster to use instead of an embedded broker, with the topics' partition
    /// count as ``partitions`` (or created by the instances), and its name for the report.
    public var external: (bootstrapServers: String, name: String)?
    /// The process to freeze for the broker step (the embedded broker's own when nil and
    /// embedded; without either, the step is left out).
    public var brokerPID: Int32?
    /// The steps to run, in this order.
    public var steps = StepKind.allCases
    /// Run the instances exactly once; the load generator's check then fails on any repeated
    /// output (needs a broker with transaction markers: not the embedded one).
    public var exactlyOnce = false
    /// Rebalance cooperatively (librdkafka's `cooperative-sticky` assignment): only the
    /// partitions that move are revoked.
    public var cooperative = false

    public init() {}

    /// The assignment strategy the instances use.
    var assignmentStrategy: String { cooperative ? "cooperative-sticky" : "range,roundrobin (eager)" }

    /// The settings every instance gets for the guarantee and assignment asked for.
    var instanceSettings: [String] {
        (exactlyOnce ? ["--set", "processing_guarantee=exactly_once"] : [])
            + (cooperative ? ["--set", "kafka.properties.partition.assignment.strategy=cooperative-sticky"] : [])
    }

    /// What a step does to the group.
    public enum StepKind: String, CaseIterable, Sendable {
        case scaleOut = "scale-out"
        case scaleIn = "scale-in"
        /// Needs a broker that expires a member which stops heartbeating.
        case crash
        case brokerPause = "broker-pause"
    }

    /// One step's figures.
    public struct Step: Codable, Sendable {
        public let name: String
        /// The longest time any live session went without an output, in seconds.
        public let longestGapSeconds: Double
        /// From the step until the last pause of a session longer than 2.5 s ended: when every
        /// partition was processing again (nil: not within the step).
        public let settledSeconds: Double?
        public let changelogRecordsReread: Int
        /// Partitions an instance took over from its warm standby (or its own state given back).
        public let partitionsFromStandby: Int
        /// Partitions restored by reading their whole changelog.
        public let partitionsRestoredInFull: Int
        /// The broker's own part: the longest an instance waited from the revocation of its
        /// partitions to the group's next assignment (`rebalance_ms`; nil: no rebalance logged).
        public let longestRebalanceSeconds: Double?
    }

    /// One step over the runs: the median of its longest gaps, and their range.
    public struct StepSummary: Codable, Sendable {
        public let name: String
        public let medianLongestGapSeconds: Double
        public let minimumLongestGapSeconds: Double
        public let maximumLongestGapSeconds: Double
        public let medianRebalanceSeconds: Double?
        public let medianChangelogRecordsReread: Double

        init(_ steps: [Step]) {
            let gaps = steps.map(\.longestGapSeconds)
            let rebalances = steps.compactMap(\.longestRebalanceSeconds)
            name = steps.first?.name ?? ""
            medianLongestGapSeconds = Spread.median(gaps)
            minimumLongestGapSeconds = gaps.min() ?? 0
            maximumLongestGapSeconds = gaps.max() ?? 0
            medianRebalanceSeconds = rebalances.isEmpty ? nil : Spread.median(rebalances)
            medianChangelogRecordsReread = Spread.median(steps.map { Double($0.changelogRecordsReread) })
        }
    }

    public struct Report: Codable, Sendable {
        public let broker: String
        public let instances: Int
        public let members: Int
        public let partitions: Int
        public let sessionTimeoutMs: Int
        /// `at_least_once` or `exactly_once`.
        public let processingGuarantee: String
        /// librdkafka's `partition.assignment.strategy`: eager, or cooperative-sticky.
        public let assignmentStrategy: String
        public let summary: [StepSummary]
        /// Each run's steps, in order.
        public let runs: [[Step]]
        /// Each run's load generator check.
        public let loadgenChecks: [String]

        /// Whether every run's check found every output exact.
        public var allExact: Bool { loadgenChecks.allSatisfy { $0.hasPrefix("exit 0") } }
    }

    /// Runs the steps `runs` times, each on a fresh broker (when embedded) and group, and
    /// writes the report.
    public func run(runs: Int = 1) throws -> Report {
        var measured: [(steps: [Step], check: String)] = []
        for run in 1...max(1, runs) {
            if runs > 1 { print("run \(run) of \(runs)") }
            measured.append(try runOnce(prefix: "failover\(run)r"))
        }
        let names = measured.first?.steps.map(\.name) ?? []
        let summary = names.map { name in StepSummary(measured.flatMap { $0.steps.filter { $0.name == name } }) }
        let report = Report(
            broker: external?.name ?? "embedded (zonestream broker)", instances: instances, members: members,
            partitions: partitions, sessionTimeoutMs: 6_000,
            processingGuarantee: exactlyOnce ? "exactly_once" : "at_least_once",
            assignmentStrategy: assignmentStrategy, summary: summary,
            runs: measured.map(\.steps),
            loadgenChecks: measured.map(\.check))
        try write(report)
        return report
    }

    /// One run, its sessions and persons named with `prefix` (on a cluster that stays, each
    /// run's outputs are told apart by their ids).
    private func runOnce(prefix: String) throws -> (steps: [Step], check: String) {
        let embedded = external == nil ? try BrokerProcess(partitions: partitions, executable: executable) : nil
        defer { embedded?.stop() }
        let bootstrap = external?.bootstrapServers ?? embedded?.bootstrapServers ?? ""
        var group = FailoverGroup(
            bootstrap: bootstrap, executable: executable, extra: instanceSettings)
        for _ in 0..<instances { try group.add() }
        try group.waitUntilReady()
        let durationSeconds = steps.count * (stepSeconds + settleSeconds + 15) + 20
        let loadgen = try ZoneStreamProcess(
            [
                "loadgen", "--bootstrap-servers", bootstrap, "--members", "\(members)",
                "--session-seconds", "3600", "--rate", "\(members)", "--prefix", prefix,
                "--duration-s", "\(durationSeconds)", "--check", "--check-timeout-s", "120",
            ] + (exactlyOnce ? ["--exactly-once"] : []), executable: executable)
        let freshness = SessionFreshness(port: try group.observerPort())
        freshness.start()
        defer { freshness.stop() }
        _ = LiveSessionCount.wait(port: try group.observerPort(), atLeast: members, seconds: 60)
        Thread.sleep(forTimeInterval: 3)
        var measured: [Step] = []
        for kind in steps {
            guard
                let step = try perform(
                    kind, group: &group, freshness, brokerPID: brokerPID ?? embedded?.pid)
            else {
                continue
            }
            measured.append(step)
        }
        _ = loadgen.waitForExit(seconds: Double(durationSeconds + 200))
        let check = loadgen.output.split(separator: "\n").last { $0.contains("check") } ?? "no check line"
        return (
            measured,
            loadgen.process.isRunning ? "did not finish" : "exit \(loadgen.process.terminationStatus): \(check)"
        )
    }

    /// Performs one step and measures it; nil when it cannot be done here.
    private func perform(
        _ kind: StepKind, group: inout FailoverGroup, _ freshness: SessionFreshness, brokerPID: Int32?
    ) throws -> Step? {
        switch kind {
        case .scaleOut:
            return try watch("scale out", group: &group, freshness) { group in try group.add() }
        case .scaleIn:
            return try watch("scale in (SIGTERM)", group: &group, freshness) { group in group.remove(SIGTERM) }
        case .crash:
            // A fresh instance to kill, settled in the group first.
            try group.add()
            try group.waitUntilReady()
            Thread.sleep(forTimeInterval: 5)
            return try watch("crash (SIGKILL)", group: &group, freshness) { group in group.remove(SIGKILL) }
        case .brokerPause:
            guard let brokerPID else { return nil }
            return try watch("broker frozen \(brokerPauseSeconds) s", group: &group, freshness) { _ in
                kill(brokerPID, SIGSTOP)
                Thread.sleep(forTimeInterval: Double(brokerPauseSeconds))
                kill(brokerPID, SIGCONT)
            }
        }
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
            changelogRecordsReread: restores.records, partitionsFromStandby: restores.fromStandby,
            partitionsRestoredInFull: restores.inFull,
            longestRebalanceSeconds: restores.longestRebalanceMs.map { (Double($0) / 100).rounded() / 10 })
        print(
            "\(name): longest gap \(step.longestGapSeconds) s, every session moving again after "
                + "\(step.settledSeconds.map { "\($0) s" } ?? "more than the step"), "
                + "\(step.changelogRecordsReread) changelog records re-read, \(step.partitionsFromStandby) partitions "
                + "from a standby, \(step.partitionsRestoredInFull) restored in full, longest rebalance "
                + "\(step.longestRebalanceSeconds.map { "\($0) s" } ?? "none")")
        // Let the group settle before the next step.
        Thread.sleep(forTimeInterval: Double(settleSeconds))
        return step
    }

    /// `-<name>` for an external cluster (its name's first word, lowercased), then
    /// `-exactly-once` when so: `failover-noida-exactly-once.json`.
    private var fileSuffix: String {
        let guarantee = (exactlyOnce ? "-exactly-once" : "") + (cooperative ? "-cooperative" : "")
        guard let name = external?.name else { return guarantee }
        let word = name.lowercased().prefix { $0.isLetter || $0.isNumber }
        return (word.isEmpty ? "-external" : "-\(word)") + guarantee
    }

    private func write(_ report: Report) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try encoder.encode(report).write(
            to: directory.appendingPathComponent(smoke ? "failover-smoke.json" : "failover\(fileSuffix).json"))
    }
}

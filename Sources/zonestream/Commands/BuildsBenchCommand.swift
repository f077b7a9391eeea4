import ArgumentParser
import Foundation
import ZoneBench

/// `zonestream bench builds`: this build against others under one harness
/// (``BuildComparison``), to tell a change's end-to-end cost from a change of harness.
struct BuildsBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "builds",
        abstract: "Measure this zonestream build and others as run children against one Kafka I/O floor.")

    @Option(
        help: "Another zonestream build to measure, NAME=PATH (repeatable; this build is measured first, as 'this').")
    var against: [String] = []
    @Option(
        help:
            "A build (by name, 'this' included) that reads the gym traffic's coached class plans (repeatable); the others follow only the plans members bring."
    )
    var classPlansFor: [String] = []
    @Option(
        help:
            "A setting of one build, NAME:KEY=VALUE as `run --set` takes it (repeatable), e.g. a build named twice, once with join_wait_ms=0."
    )
    var setFor: [String] = []
    // Not --records, --partitions, --brokers or --workers: `bench` itself takes those names.
    @Option(help: "Gym records preloaded.") var gymRecords = 4_000_000
    @Option(help: "Partitions of the embedded broker's topics.") var brokerPartitions = 32
    @Option(help: "Brokers of the embedded cluster.") var brokerCount = 3
    @Option(help: "Each build's worker threads.") var workerThreads = 2
    @Option(help: "Rounds of the floor and every build.") var rounds = 3
    // Not --output: `bench` itself takes that name.
    @Option(help: "Where to write the JSON report.") var report = "benchmarks/results/builds.json"

    var others: [BuildComparison.Build] {
        against.map { entry in
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts.first ?? ""
            return BuildComparison.Build(
                name: name, executable: parts.count > 1 ? parts[1] : "", settings: settings(of: name))
        }
    }

    /// The `--set-for` settings of the build called `name`.
    func settings(of name: String) -> [String] {
        setFor.compactMap { entry in
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            return parts.count == 2 && parts[0] == name ? parts[1] : nil
        }
    }

    func validate() throws {
        guard !against.isEmpty else { throw ValidationError("--against: name at least one other build, NAME=PATH") }
        for build in others {
            guard !build.name.isEmpty, build.name != "this",
                FileManager.default.isExecutableFile(atPath: build.executable)
            else {
                throw ValidationError(
                    "--against takes NAME=PATH with a name other than 'this' and an executable file (got '\(build.name)=\(build.executable)')"
                )
            }
        }
        let names = Set(["this"] + others.map(\.name))
        for name in classPlansFor where !names.contains(name) {
            throw ValidationError("--class-plans-for: '\(name)' is not a build of this comparison (\(names.sorted()))")
        }
        for entry in setFor {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, names.contains(parts[0]), parts[1].contains("=") else {
                throw ValidationError(
                    "--set-for takes NAME:KEY=VALUE with NAME a build of this comparison (\(names.sorted())); got '\(entry)'"
                )
            }
        }
        try requireOption("--gym-records", gymRecords, in: 1...100_000_000)
        try requireOption("--broker-partitions", brokerPartitions, in: 1...64)
        try BrokerCommand.validate(brokers: brokerCount)
        try requireOption("--worker-threads", workerThreads, in: 1...64)
        try requireOption("--rounds", rounds, in: 1...100)
    }

    func run() throws {
        let logger = Logs.bootstrap(level: "warning")
        let this = BuildComparison.Build(
            name: "this", executable: CommandLine.arguments[0], settings: settings(of: "this"))
        var comparison = BuildComparison(builds: [this] + others, output: report)
        comparison.records = gymRecords
        comparison.partitions = brokerPartitions
        comparison.brokers = brokerCount
        comparison.workers = workerThreads
        comparison.rounds = rounds
        comparison.classPlansFor = Set(classPlansFor)
        try comparison.run(logger: logger)
    }
}

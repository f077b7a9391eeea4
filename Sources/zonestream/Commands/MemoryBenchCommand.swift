import ArgumentParser
import Foundation
import ZoneBench

/// `zonestream bench memory`: resident memory per live session alone (``MemoryBenchmark``).
struct MemoryBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Measure a zonestream run child's resident memory per live session as it holds more sessions.")

    @Option(help: "Live sessions held after each round, cumulative, comma-separated.") var sessions = "10000,100000"
    // Not --workers: `bench` itself takes that name, and would take the value.
    @Option(help: "The processor's worker threads.") var workerThreads = 2
    @Option(help: "Runs, each with a fresh processor on topics of its own.") var runs = 1
    @Option(help: "Run this zonestream build as the processor (to measure an earlier version the same way).")
    var processorExecutable: String?
    @Option(
        name: .customLong("set"), help: "A setting for the processor, KEY=VALUE as `run --set` takes it (repeatable).")
    var settings: [String] = []
    // Not --partitions: `bench` itself takes that name.
    @Option(help: "Partitions of the embedded broker's topics (the mock keeps about 5 MB per partition).")
    var brokerPartitions = 8
    @Option(
        help:
            "Open each session with a session_start whose plan has this many one-minute steps on both quantities (an even number up to 200; 0: no plan)."
    )
    var planSteps = 0
    @Option(
        help:
            "Make every session a member of one class whose plan (on class-plans) has this many one-minute steps (up to 200; 0: no class plan)."
    )
    var classPlanSteps = 0
    @Flag(inversion: .prefixedNo, help: "After the rounds, kill the processor and measure a new one's restore.")
    var restore = true
    @Flag(help: "After the rounds, measure the warm standbys a second instance keeps of the first one's sessions.")
    var standby = false
    @Option(help: "Measure the profile table with this many persons' profiles first (0: not measured).")
    var profiles = 0
    @Option(
        help:
            "Measure the person stage's and /people tables with these many persons first, cumulative, comma-separated (empty: not measured)."
    )
    var persons = ""

    var personCounts: [Int] {
        persons.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    var sessionCounts: [Int] {
        sessions.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    func validate() throws {
        let counts = sessionCounts
        guard !counts.isEmpty, counts.count == sessions.split(separator: ",").count,
            counts.allSatisfy({ (1...1_000_000).contains($0) }),
            zip(counts, counts.dropFirst()).allSatisfy({ $0 < $1 })
        else {
            throw ValidationError(
                "--sessions must be increasing counts of 1 to 1000000, comma-separated (got '\(sessions)')")
        }
        try requireOption("--worker-threads", workerThreads, in: 1...64)
        try requireOption("--runs", runs, in: 1...20)
        try requireOption("--broker-partitions", brokerPartitions, in: 1...256)
        try requireOption("--profiles", profiles, in: 0...2_000_000)
        try requireOption("--plan-steps", planSteps, in: 0...200)
        guard planSteps % 2 == 0 else { throw ValidationError("--plan-steps must be even (got \(planSteps))") }
        try requireOption("--class-plan-steps", classPlanSteps, in: 0...200)
        guard planSteps == 0 || classPlanSteps == 0 else {
            throw ValidationError("--plan-steps and --class-plan-steps: a session follows one plan, name one of them")
        }
        let personCounts = self.personCounts
        guard personCounts.count == persons.split(separator: ",").count,
            personCounts.allSatisfy({ (1...2_000_000).contains($0) }),
            zip(personCounts, personCounts.dropFirst()).allSatisfy({ $0 < $1 })
        else {
            throw ValidationError(
                "--persons must be increasing counts of 1 to 2000000, comma-separated (got '\(persons)')")
        }
        for setting in settings where !setting.contains("=") {
            throw ValidationError("--set takes KEY=VALUE (got '\(setting)')")
        }
    }

    func run() throws {
        var benchmark = MemoryBenchmark(sessionCounts: sessionCounts, workers: workerThreads, runs: runs)
        benchmark.processorSettings = settings
        benchmark.planSteps = planSteps
        benchmark.classPlanSteps = classPlanSteps
        benchmark.partitions = brokerPartitions
        benchmark.measuresRestore = restore
        benchmark.measuresStandby = standby
        benchmark.profilePersons = profiles
        benchmark.personCounts = personCounts
        benchmark.processorExecutable = processorExecutable.map { URL(fileURLWithPath: $0) }
        _ = try benchmark.run()
    }
}

public import Foundation
import ZoneHarness
import ZoneKafka

/// The memory measurement alone (`zonestream bench memory`): an embedded broker as a child
/// process, then `runs` times a fresh `zonestream run` child holding more and more live
/// sessions, each run on topics of its own. `processorExecutable` measures another build the
/// same way, so a change to a session's size can be compared in one measurement.
public struct MemoryBenchmark: Sendable {
    /// Live sessions held after each round, cumulative (10,000 then 100,000 in `bench`).
    public var sessionCounts: [Int]
    public var workers: Int
    public var runs: Int
    /// The `zonestream` executable, started as the embedded broker.
    public var executable: URL
    /// The build run as the processor; `executable` when nil.
    public var processorExecutable: URL?
    /// More `KEY=VALUE` settings for the processor, to measure a setting's effect.
    public var processorSettings: [String] = []
    /// Steps of the plan each session follows (its `session_start`'s, on both quantities), to
    /// measure what a plan adds to a session; 0: sessions without a plan.
    public var planSteps = 0
    /// Steps of the plan of the class every session belongs to (a `class-plans` record read by
    /// every session), to measure what following a shared plan adds; 0: no class plan.
    public var classPlanSteps = 0
    /// Partitions of the embedded broker's topics (the mock keeps about 5 MB per partition,
    /// so many sessions need many partitions).
    public var partitions = 8
    /// After the rounds, kill the processor and measure a new one restoring every session.
    public var measuresRestore = true
    /// After the rounds, measure a second instance's warm standbys of the first one's sessions.
    public var measuresStandby = false
    /// Persons whose profiles a processor reads, to measure the profile table per person (0: not measured).
    public var profilePersons = 0
    /// Persons counted by the person stage, cumulative, to measure its table and the `/people`
    /// table per person (empty: not measured).
    public var personCounts: [Int] = []

    public init(
        sessionCounts: [Int], workers: Int, runs: Int, executable: URL = URL(fileURLWithPath: CommandLine.arguments[0])
    ) {
        self.sessionCounts = sessionCounts
        self.workers = workers
        self.runs = runs
        self.executable = executable
    }

    /// Per run, the RSS growth per session added in each round; printed as they come.
    public func run() throws -> [[Double]] {
        let inputs = (1...max(1, runs)).map { "\(SessionMemory.inputTopic)-\($0)" }
        let changelogs = inputs.map { "bench-changelog-\($0)" }
        let broker = try BrokerProcess(
            partitions: partitions,
            extraArguments: [
                "--extra-topics",
                (inputs + changelogs + [ProfileMemory.topic, ProfileMemory.emptyTopic] + PersonMemory.topics.all
                    + PersonMemory.emptyTopics.all).joined(separator: ","),
            ],
            executable: executable)
        defer { broker.stop() }
        let producer = try KafkaProducer(
            configuration: KafkaConfiguration(
                bootstrapServers: broker.bootstrapServers, clientID: "zonestream-bench-memory"))
        try measureTables(bootstrap: broker.bootstrapServers, producer: producer)
        var all: [[Double]] = []
        for (input, changelog) in zip(inputs, changelogs) {
            let measured = try SessionMemory.measure(
                bootstrap: broker.bootstrapServers, topics: (input, changelog), workers: workers,
                sessionCounts: sessionCounts, producer: producer, executable: processorExecutable ?? executable,
                extraSettings: processorSettings, planSteps: planSteps, classPlanSteps: classPlanSteps,
                standby: measuresStandby,
                restore: measuresRestore)
            print(
                "bench memory: RSS per live session: "
                    + SessionMemory.describe(measured.perSession, sessionCounts: sessionCounts))
            if let bytes = measured.changelogBytes {
                print(String(format: "bench memory: changelog: %.0f bytes per session record", bytes))
            }
            if let standby = measured.standby {
                print(
                    String(
                        format:
                            "bench memory: warm standbys: %.0f bytes per standby session (%d sessions: a second instance held %.0f MB with them, %.0f MB without)",
                        standby.bytesEach, standby.count, Double(standby.withBytes) / 1e6,
                        Double(standby.withoutBytes) / 1e6))
            }
            if let restore = measured.restore {
                print(
                    String(
                        format:
                            "bench memory: restore of %d sessions after SIGKILL: peak %.0f MB, %.2f x the %.0f MB held before, %.2f x the %.0f MB settled after",
                        restore.sessions, Double(restore.peakBytes) / 1e6, restore.peakOverSteady,
                        Double(restore.steadyBytes) / 1e6, restore.peakOverSettledAfter,
                        Double(restore.settledAfterBytes) / 1e6))
            }
            all.append(measured.perSession)
        }
        return all
    }

    /// The profile table's and the person tables' memory per person, when asked for.
    private func measureTables(bootstrap: String, producer: KafkaProducer) throws {
        if profilePersons > 0 {
            let profiles = try ProfileMemory.measure(
                bootstrap: bootstrap, persons: profilePersons, producer: producer,
                executable: processorExecutable ?? executable, extraSettings: processorSettings)
            print(
                String(
                    format: "bench memory: profile table: %.0f bytes per person (%d persons: %.0f MB, %.0f MB without)",
                    profiles.bytesEach, profiles.count, Double(profiles.withBytes) / 1e6,
                    Double(profiles.withoutBytes) / 1e6))
        }
        if !personCounts.isEmpty {
            let persons = try PersonMemory.measure(
                bootstrap: bootstrap, counts: personCounts, producer: producer,
                executable: processorExecutable ?? executable, extraSettings: processorSettings)
            for measured in persons {
                print(
                    String(
                        format:
                            "bench memory: person tables: %.0f bytes per person (%d persons: %.0f MB, %.0f MB without)",
                        measured.bytesEach, measured.count, Double(measured.withBytes) / 1e6,
                        Double(measured.withoutBytes) / 1e6))
            }
        }
    }
}

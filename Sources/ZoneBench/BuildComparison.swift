public import Foundation
public import Logging
import ZoneKafka
import ZoneProcessor

/// Two or more `zonestream` builds under one harness (`zonestream bench builds`): the gym
/// traffic preloaded once on an embedded broker, then rounds of the Kafka I/O floor and each
/// build as a `zonestream run` child (``ChildThroughput``), so every build's ratio to the floor
/// is read against the same floor, measured by the same code, in the same measurement. How a
/// change's end-to-end cost is told apart from a change of harness.
public struct BuildComparison: Sendable {
    /// A build to measure: its name in the report, its `zonestream` executable, and settings
    /// of its own (`KEY=VALUE`, as `run --set` takes them), so one build can be measured with
    /// and without a setting.
    public struct Build: Sendable {
        public var name: String
        public var executable: String
        public var settings: [String]

        public init(name: String, executable: String, settings: [String] = []) {
            self.name = name
            self.executable = executable
            self.settings = settings
        }
    }

    public var builds: [Build]
    public var records = 4_000_000
    public var partitions = 32
    public var brokers = 3
    public var workers = 2
    public var rounds = 3
    /// The builds (by name) that read the coaches' class plans of the gym traffic; the others
    /// read an empty class-plans topic, so only the sessions that bring a plan of their own
    /// (one member in seven) follow one.
    public var classPlansFor: Set<String> = []
    /// The JSON report's path.
    public var output: String
    /// The `zonestream` executable started as the embedded broker (and run for the floor's outputs).
    public var executable = URL(fileURLWithPath: CommandLine.arguments[0])

    public init(builds: [Build], output: String) {
        self.builds = builds
        self.output = output
    }

    /// Runs the rounds, prints each figure as it comes and writes the report.
    public func run(logger: Logger) throws {
        let names = BenchTopics(prefix: "")
        let groups = [GymRun.warmUpGroup, Self.childWarmUpGroup] + runGroups.joined()
        let cluster = try BenchCluster(
            bootstrapServers: nil,
            topics: names.gymSpecifications(partitions: partitions)
                + [TopicAdmin.Specification(name: names.floorOutput, partitions: partitions, replicationFactor: 1)]
                + BenchProcessorRun.specifications(
                    groups: groups, changelogPrefix: names.changelogPrefix, partitions: partitions),
            defaultPartitions: partitions, brokers: brokers, executable: executable)
        defer { cluster.stop() }
        let kafka = KafkaConfiguration(bootstrapServers: cluster.bootstrapServers, clientID: "zonestream-bench")
        let producer = try KafkaProducer(configuration: kafka, properties: Benchmark.preloadProducerProperties)
        let mix = try GymPreload.produce(
            records: records, seed: 1, topics: names.gym, classPlansTopic: names.gymCoachedClassPlans,
            producer: producer)
        try PreloadCheck.requireKept(records: mix.records, topic: names.gym.workoutEvents, kafka: kafka, logger: logger)
        print("bench builds: \(mix.records) gym records, \(partitions) partitions, \(workers) workers")

        var configuration = ProcessorConfiguration(kafka: kafka)
        configuration.createTopicPartitions = 0
        configuration.workers = workers
        // An uncounted run of this build, in this process: what it writes is what the floor
        // writes again, as in `zonestream bench`.
        let warmUp = BenchProcessorRun(
            base: configuration, topics: names.gym, group: GymRun.warmUpGroup, changelogPrefix: names.changelogPrefix,
            liveViews: true)
        let warmUpRun = try Benchmark.throughput(
            configuration: warmUp.configuration, records: mix.records, logger: logger)
        let outputs = try GymRun.outputsOf(
            warmUpRun.metrics, topics: names.gym, changelog: names.changelogPrefix + GymRun.warmUpGroup, kafka: kafka,
            logger: logger)

        let runs = try measureRounds(
            configuration: configuration, names: names, records: mix.records, outputs: outputs,
            broker: cluster.brokerPID, logger: logger)
        let report = BuildComparisonReport(
            comparison: self, mix: mix, floorRuns: runs.floor, buildRuns: runs.builds)
        print(report.summary)
        try report.write(to: output)
    }

    /// The rounds: the floor and the builds in turn, each round starting one client later, so
    /// that every client runs in every place of the order equally often (reversing every other
    /// round left the builds in the middle always the furthest from a floor run).
    private func measureRounds(
        configuration: ProcessorConfiguration, names: BenchTopics, records: Int, outputs: KafkaFloor.Outputs,
        broker: Int32?, logger: Logger
    ) throws -> (floor: [ClientCost], builds: [[ClientCost]]) {
        var floorRuns: [ClientCost] = []
        var buildRuns = Array(repeating: [ClientCost](), count: builds.count)
        // The measurement's first child paid for memory none after it did (two to three times their
        // page faults, a third more CPU per record): an uncounted child run takes that.
        _ = try ChildThroughput.measure(
            childRun(0, group: Self.childWarmUpGroup, names: names, base: configuration), records: records)
        for round in 0..<rounds {
            let clients = Array(-1..<builds.count)
            let first = round % clients.count
            for client in clients[first...] + clients[..<first] {
                if client < 0 {
                    let floor = try KafkaFloor.measure(
                        kafka: configuration.kafka, topic: names.gym.workoutEvents, outputTopic: names.floorOutput,
                        records: records, outputs: outputs, commitIntervalMs: configuration.commitIntervalMs,
                        run: floorRuns.count + 1, broker: broker, logger: logger)
                    floorRuns.append(floor.cost)
                    print(
                        String(
                            format: "bench builds: round %d: floor %.0f records/s", round + 1,
                            floor.cost.recordsPerSecond))
                } else {
                    let measured = try ChildThroughput.measure(
                        childRun(client, group: runGroups[client][round], names: names, base: configuration),
                        records: records, broker: broker)
                    buildRuns[client].append(measured)
                    print(
                        String(
                            format: "bench builds: round %d: %@ %.0f records/s, %@", round + 1,
                            builds[client].name, measured.recordsPerSecond, measured.description))
                }
            }
        }
        return (floorRuns, buildRuns)
    }

    /// The uncounted child run's group.
    static let childWarmUpGroup = "bench-builds-warm-up"

    /// Each build's consumer group per round, each with state topics of its own.
    private var runGroups: [[String]] {
        builds.indices.map { build in (1...rounds).map { "bench-builds-\(build + 1)-\($0)" } }
    }

    private func childRun(_ build: Int, group: String, names: BenchTopics, base: ProcessorConfiguration)
        -> ChildThroughput.Run
    {
        var topics = names.gym
        if classPlansFor.contains(builds[build].name) { topics.classPlans = names.gymCoachedClassPlans }
        let run = BenchProcessorRun(
            base: base, topics: topics, group: group, changelogPrefix: names.changelogPrefix, liveViews: true)
        return ChildThroughput.Run(
            executable: URL(fileURLWithPath: builds[build].executable), configuration: run.configuration,
            settings: builds[build].settings)
    }
}

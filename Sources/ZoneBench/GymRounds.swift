import Logging
import ZoneKafka
import ZoneProcessor

/// The gym traffic's rounds: each of the four clients run over the same records, one run at a
/// time, every run kept for the medians and spreads of ``GymRun/Figures``.
struct GymRounds {
    /// The clients of a round.
    enum Client { case bare, liveViews, noLiveViews, floor }

    let configuration: ProcessorConfiguration
    let topics: Topics
    let records: Int
    let floorTopic: String
    let changelogPrefix: String
    /// What ZoneStream wrote, which the floor writes again.
    let floorOutputs: KafkaFloor.Outputs
    let logger: Logger
    /// Rounds of the four clients (each client's spread needs at least three runs).
    let count = GymRun.rounds

    private(set) var runs: [GymRun.LiveViewRun] = []
    private(set) var floorRuns: [ClientCost] = []
    private(set) var bareRuns: [ClientCost] = []
    /// The first counted run's of each client, for the plot.
    private var timelines: (zoneStream: [[Double]], bare: [[Double]], floor: [[Double]]) = ([], [], [])

    init(
        configuration: ProcessorConfiguration, topics: Topics, records: Int, floorTopic: String,
        changelogPrefix: String,
        floorOutputs: KafkaFloor.Outputs, logger: Logger
    ) {
        self.configuration = configuration
        self.topics = topics
        self.records = records
        self.floorTopic = floorTopic
        self.changelogPrefix = changelogPrefix
        self.floorOutputs = floorOutputs
        self.logger = logger
    }

    /// One run of `client`.
    mutating func run(_ client: Client) throws {
        switch client {
        case .bare:
            let bare = try BareConsumer.measure(
                kafka: configuration.kafka, topic: topics.workoutEvents, records: records,
                run: bareRuns.count + 1, logger: logger)
            bareRuns.append(bare.cost)
            if timelines.bare.isEmpty { timelines.bare = bare.timeline }
        case .liveViews, .noLiveViews:
            let run = BenchProcessorRun(
                base: configuration, topics: topics, group: GymRun.groups[runs.count + 1],
                changelogPrefix: changelogPrefix, liveViews: client == .liveViews)
            let (cost, timeline, _) = try Benchmark.throughput(
                configuration: run.configuration, records: records, logger: logger)
            runs.append(
                GymRun.LiveViewRun(liveViews: client == .liveViews, recordsPerSecond: cost.recordsPerSecond, cost: cost)
            )
            if timelines.zoneStream.isEmpty { timelines.zoneStream = timeline }
        case .floor:
            let floor = try KafkaFloor.measure(
                kafka: configuration.kafka, topic: topics.workoutEvents, outputTopic: floorTopic, records: records,
                outputs: floorOutputs, commitIntervalMs: configuration.commitIntervalMs,
                run: floorRuns.count + 1, logger: logger)
            floorRuns.append(floor.cost)
            if timelines.floor.isEmpty { timelines.floor = floor.timeline }
        }
    }

    /// The medians, spreads and ratios of the runs so far.
    func figures(
        mix: GymPreload.Mix, zoneChangesPerMillionRecords: Double, finishedWorkoutsPerMillionRecords: Double
    ) -> GymRun.Figures {
        let withViews = runs.filter(\.liveViews)
        let zoneStreamRates = Spread(withViews.map(\.recordsPerSecond))
        let withoutViews = Spread(runs.filter { !$0.liveViews }.map(\.recordsPerSecond))
        let floorRates = Spread(floorRuns.map(\.recordsPerSecond))
        let bareRates = Spread(bareRuns.map(\.recordsPerSecond))
        return GymRun.Figures(
            mix: mix, bareConsumerRecordsPerSecond: bareRates.median, floorRecordsPerSecond: floorRates.median,
            zoneStreamRecordsPerSecond: zoneStreamRates.median,
            zoneStreamWithoutLiveViewsRecordsPerSecond: withoutViews.median,
            zoneChangesPerMillionRecords: zoneChangesPerMillionRecords,
            finishedWorkoutsPerMillionRecords: finishedWorkoutsPerMillionRecords, outputRecords: floorOutputs.count,
            outputMeanBytes: floorOutputs.meanBytes, zoneStreamRates: zoneStreamRates,
            zoneStreamWithoutLiveViewsRates: withoutViews, floorRates: floorRates, bareConsumerRates: bareRates,
            ratioToFloor: Spread(zip(withViews, floorRuns).map { $0.recordsPerSecond / $1.recordsPerSecond }),
            ratioToBareConsumer: Spread(zip(withViews, bareRuns).map { $0.recordsPerSecond / $1.recordsPerSecond }),
            liveViewRuns: runs, zoneStreamCost: ClientCost.median(withViews.map(\.cost)),
            floorCost: ClientCost.median(floorRuns), bareConsumerCost: ClientCost.median(bareRuns),
            zoneStreamTimeline: timelines.zoneStream, bareConsumerTimeline: timelines.bare,
            floorTimeline: timelines.floor)
    }
}

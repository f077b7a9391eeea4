import Foundation

/// What `zonestream bench builds` writes: the floor's runs and each build's, with each build's
/// ratio to the floor round by round, and the first build's rate over each other's.
struct BuildComparisonReport: Codable {
    struct BuildFigures: Codable {
        /// The build's name (its executable's path is left out: it is the measuring machine's).
        var name: String
        /// Whether the build read the coaches' class plans (`--class-plans-for`).
        var readsClassPlans: Bool
        /// Its own settings (`--set-for`).
        var settings: [String]
        var recordsPerSecond: Spread
        /// Its rate over the floor's in the same round.
        var ratioToFloor: Spread
        /// CPU seconds the child used per million records, and cores it kept busy, per run.
        var cpuSecondsPerMillionRecords: Spread
        var coresBusy: Spread
        /// The embedded broker's CPU seconds per million of the build's records, per run.
        var brokerCPUSecondsPerMillionRecords: Spread
    }

    var what =
        "Each build as a `zonestream run` child over the same preloaded gym traffic on one embedded broker, in rounds with the Kafka I/O floor (the floor and the builds in turn, each round starting one client later) after one uncounted child run; each rate over the window from a tenth to nine tenths of the records, read from the child's /metrics every 100 ms, with the child's CPU and the embedded broker's in that window."
    var machine =
        "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB"
    var records: Int
    var partitions: Int
    var brokers: Int
    var workers: Int
    var mix: GymPreload.Mix
    var floorRecordsPerSecond: Spread
    /// The embedded broker's CPU seconds per million of the floor's records, per run.
    var floorBrokerCPUSecondsPerMillionRecords: Spread
    var builds: [BuildFigures]
    /// The first build's rate over each other build's, round by round (the same floor cancels).
    var firstOverOthers: [String: Spread]
    /// Where the median of each of those ratios lies (``MedianInterval``): a measurement that
    /// cannot tell the builds apart gives an interval holding 1.
    var firstOverOthersInterval: [String: MedianInterval]

    init(
        comparison: BuildComparison, mix: GymPreload.Mix, floorRuns: [ClientCost], buildRuns: [[ClientCost]]
    ) {
        records = mix.records
        partitions = comparison.partitions
        brokers = comparison.brokers
        workers = comparison.workers
        self.mix = mix
        floorRecordsPerSecond = Spread(floorRuns.map(\.recordsPerSecond))
        floorBrokerCPUSecondsPerMillionRecords = Spread(floorRuns.compactMap(\.brokerCPUSecondsPerMillionRecords))
        builds = zip(comparison.builds.indices, comparison.builds).map { index, build in
            let runs = buildRuns[index]
            return BuildFigures(
                name: build.name, readsClassPlans: comparison.classPlansFor.contains(build.name),
                settings: build.settings,
                recordsPerSecond: Spread(runs.map(\.recordsPerSecond)),
                ratioToFloor: Spread(zip(runs, floorRuns).map { $0.recordsPerSecond / $1.recordsPerSecond }),
                cpuSecondsPerMillionRecords: Spread(runs.map(\.cpuSecondsPerMillionRecords)),
                coresBusy: Spread(runs.map(\.coresBusy)),
                brokerCPUSecondsPerMillionRecords: Spread(runs.compactMap(\.brokerCPUSecondsPerMillionRecords)))
        }
        var ratios: [String: Spread] = [:]
        for (index, build) in comparison.builds.enumerated().dropFirst() {
            ratios[build.name] = Spread(
                zip(buildRuns[0], buildRuns[index]).map { $0.recordsPerSecond / $1.recordsPerSecond })
        }
        firstOverOthers = ratios
        firstOverOthersInterval = ratios.compactMapValues { MedianInterval($0.runs) }
    }

    var summary: String {
        (["bench builds: floor \(floorRecordsPerSecond.text()) records/s"]
            + builds.map {
                "bench builds: \($0.name): \($0.recordsPerSecond.text()) records/s, "
                    + "\($0.ratioToFloor.text("%.2f")) of the floor, "
                    + "\($0.cpuSecondsPerMillionRecords.text("%.2f")) CPU-s per million records, "
                    + "the broker \($0.brokerCPUSecondsPerMillionRecords.text("%.3f")) more"
            }
            + builds.dropFirst().compactMap { build in
                guard let ratio = firstOverOthers[build.name] else { return nil }
                let interval = firstOverOthersInterval[build.name].map { ", median within \($0.text)" } ?? ""
                return "bench builds: \(builds[0].name) over \(build.name): \(ratio.text("%.3f"))\(interval)"
            }).joined(separator: "\n")
    }

    func write(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url)
        print("bench builds: wrote \(path)")
    }
}

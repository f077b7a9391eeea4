import Foundation

/// ZoneStream against the peer stream processors, from one measurement of `zonestream bench
/// --peer ...`: throughput on the same gym records (with the bare consumer and the Kafka I/O
/// floor that bound every client), CPU per record and memory, and latency at one fixed rate.
/// Written as peers.json beside bench.json.
struct PeersReport: Codable {
    struct PeerSettings: Codable {
        /// The peer's pinned packages (its requirements.txt).
        var packages: [String]
        var runs: String
    }

    /// One client on the gym records: its rates over the rounds and its CPU per million records.
    struct Client: Codable {
        var recordsPerSecond: Spread
        var cpuSecondsPerMillionRecords: Double
    }

    var broker: String
    var machine: String
    var gymRecords: Int
    var bareConsumer: Client
    var floor: Client
    var zoneStream: Client
    var peers: [PeerRun.Figures]
    var peerSettings: [String: PeerSettings]
    /// ZoneStream's latency at the peers' rate first, then each peer's.
    var latency: [PeerLatency.Figures]
    /// Engines compared by name but not measured, and why.
    var notMeasured: [String: String]

    init(bench: BenchReport, latency: [PeerLatency.Figures], settings: [String: PeerSettings]) {
        let gym = bench.gym
        broker = bench.broker
        machine = bench.machine
        gymRecords = gym.mix.records
        bareConsumer = Client(
            recordsPerSecond: gym.bareConsumerRates,
            cpuSecondsPerMillionRecords: gym.bareConsumerCost.cpuSecondsPerMillionRecords)
        floor = Client(
            recordsPerSecond: gym.floorRates, cpuSecondsPerMillionRecords: gym.floorCost.cpuSecondsPerMillionRecords)
        zoneStream = Client(
            recordsPerSecond: gym.zoneStreamRates,
            cpuSecondsPerMillionRecords: gym.zoneStreamCost.cpuSecondsPerMillionRecords)
        peers = bench.peers
        peerSettings = settings
        self.latency = latency
        notMeasured = Self.notMeasured
    }

    static let notMeasured = [
        "kafka-streams": "a Java library: its packages come from Maven, which the build machines cannot reach",
        "flink": "Flink's Kafka connector comes from Maven, which the build machines cannot reach",
    ]

    /// Writes peers.json and its plot, peers.svg, into `directory`.
    func write(to directory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: "\(directory)/peers.json"))
        try PeersPlot(report: self).svg.write(toFile: "\(directory)/peers.svg", atomically: true, encoding: .utf8)
        print("bench: wrote \(directory)/peers.json and \(directory)/peers.svg")
    }

    /// Draws peers.svg again from the peers.json in `directory` (after the plot changed).
    static func redrawPlot(in directory: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/peers.json"))
        let report = try JSONDecoder().decode(PeersReport.self, from: data)
        try PeersPlot(report: report).svg.write(toFile: "\(directory)/peers.svg", atomically: true, encoding: .utf8)
        print("bench: wrote \(directory)/peers.svg")
    }
}

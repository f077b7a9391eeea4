import Foundation
import Logging
import ZoneKafka
import ZoneProcessor

/// The peers (`--peer`): their jobs on the gym traffic in rounds, and their latency at a
/// fixed rate beside ZoneStream's at the same rate, in the same measurement.
extension Benchmark {
    /// Each peer's job (`--peer`) on the gym traffic's records, in rounds, against ZoneStream's
    /// rate and CPU. A peer that needs topics created when asked is left out on the embedded
    /// broker, with the reason printed.
    func measurePeers(cluster: BenchCluster, names: BenchTopics, gym: GymRun.Figures) throws
        -> [PeerRun.Figures]
    {
        var figures: [PeerRun.Figures] = []
        for name in peers {
            if cluster.isEmbedded && PeerRun.needsTopicCreation(name) {
                print(
                    "bench: peer \(name) left out: it creates topics, which the embedded broker cannot (run on a cluster)"
                )
                continue
            }
            figures.append(
                try PeerRun.measure(
                    peer: name, bootstrapServers: cluster.bootstrapServers, input: names.gym.workoutEvents,
                    output: names.peerOutput, records: gym.mix.records, rounds: smoke ? 1 : Self.peerRounds,
                    onMock: cluster.isEmbedded, against: gym.zoneStreamCost,
                    zoneStreamRecordsPerSecond: gym.zoneStreamRecordsPerSecond))
        }
        return figures
    }

    /// Rounds per peer, as ZoneStream's gym runs have.
    static let peerRounds = 3

    /// ZoneStream's latency at the peers' fixed rate, then each peer's at the same rate.
    func measurePeerLatency(
        base: ProcessorConfiguration, cluster: BenchCluster, names: BenchTopics, kafka: KafkaConfiguration,
        producer: KafkaProducer, logger: Logger
    ) throws -> [PeerLatency.Figures] {
        guard !peers.isEmpty else { return [] }
        let rate = smoke ? 2_000 : peerLatencyRate
        let seconds = smoke ? 2 : peerLatencySeconds
        let run = BenchProcessorRun(
            base: base, topics: names.latencyAtPeerRate, group: BenchTopics.peerRateGroup,
            changelogPrefix: names.changelogPrefix, liveViews: false)
        let zoneStream = try LatencyRun.measure(
            configuration: run.configuration, benchKafka: kafka, producer: producer, rate: rate, seconds: seconds,
            traffic: .spread, logger: logger)
        var figures = [PeerLatency.Figures(peer: "zonestream", rate: rate, seconds: seconds, result: zoneStream)]
        print(figures[0].summary)
        for peer in peers where !(cluster.isEmbedded && PeerRun.needsTopicCreation(peer)) {
            figures.append(
                try PeerLatency.measure(
                    peer: peer, bootstrapServers: cluster.bootstrapServers,
                    topics: PeerLatency.topics(of: peer, prefix: names.prefix), kafka: kafka, producer: producer,
                    rate: rate, seconds: seconds, onMock: cluster.isEmbedded, logger: logger))
        }
        return figures
    }

    /// How each peer ran in this measurement: its pinned packages and its settings.
    func peerSettings(cluster: BenchCluster) -> [String: PeersReport.PeerSettings] {
        var settings: [String: PeersReport.PeerSettings] = [:]
        for peer in peers {
            let requirements =
                (try? String(contentsOfFile: "benchmarks/peers/\(peer)/requirements.txt", encoding: .utf8)) ?? ""
            settings[peer] = PeersReport.PeerSettings(
                packages: requirements.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") },
                runs: PeerRun.howItRuns(peer, onMock: cluster.isEmbedded))
        }
        return settings
    }
}

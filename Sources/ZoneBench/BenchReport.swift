import Foundation

/// The benchmark's results: printed as a table, written as JSON and as an SVG plot.
struct BenchReport: Codable {
    /// "embedded mock cluster of N brokers" or the cluster's bootstrap servers.
    var broker: String
    var machine: String
    var records: Int
    var partitions: Int
    var workers: Int
    var ceilingRecordsPerSecond: Double
    var zoneStreamRecordsPerSecond: Double
    var ratio: Double
    /// The same run with live-session views published for the HTTP endpoint (as `run` does).
    var liveViewsRecordsPerSecond: Double
    var latencyTargetSamplesPerSecond: Int
    /// Partitions of the latency run's topics, and when its sessions cross zones.
    var latencyPartitions: Int
    var latencyTraffic: String
    var latencyAchievedSamplesPerSecond: Double
    var latencyP50Ms: Double
    var latencyP99Ms: Double
    var latencyP999Ms: Double
    /// The latency floor (``LatencyFloor``) in the same run: the Kafka path alone, same traffic.
    var latencyFloorP50Ms: Double
    var latencyFloorP99Ms: Double
    var latencyFloorP999Ms: Double
    var peakRSSBytes: Int
    var bytesPerSession10k: Double
    var bytesPerSession100k: Double
    /// (seconds since start, records processed per second) during the throughput run.
    var throughputOverTime: [[Double]]
    /// (percentile, ms) from p0 to p99.9 in steps of 0.01 "nines", and the maximum: the curve.
    var latencyPercentilesMs: [[Double]]
    /// The latency floor's curve, the same way.
    var latencyFloorPercentilesMs: [[Double]]
    /// The same measures on the load generator's gym traffic, with the Kafka I/O floor.
    var gym: GymRun.Figures
    /// Peer stream processors on the same gym traffic (`--peer`), in the same measurement.
    var peers: [PeerRun.Figures]

    var table: String {
        func row(_ name: String, _ value: String) -> String {
            "| \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) | \(value) |"
        }
        return [
            "| measure | value |", "| --- | --- |",
            row("bare librdkafka consumer (ceiling), records/s", String(format: "%.0f", ceilingRecordsPerSecond)),
            row("ZoneStream end to end, records/s", String(format: "%.0f", zoneStreamRecordsPerSecond)),
            row("ZoneStream / ceiling", String(format: "%.2f", ratio)),
            row(
                "with live views for /sessions and /board, records/s", String(format: "%.0f", liveViewsRecordsPerSecond)
            ),
            row(
                "latency at \(latencyTargetSamplesPerSecond) samples/s (\(latencyTraffic), \(latencyPartitions) partitions): p50 / p99 / p99.9",
                String(format: "%.1f / %.1f / %.1f ms", latencyP50Ms, latencyP99Ms, latencyP999Ms)),
            row(
                "latency floor (Kafka path alone): p50 / p99 / p99.9",
                String(format: "%.1f / %.1f / %.1f ms", latencyFloorP50Ms, latencyFloorP99Ms, latencyFloorP999Ms)),
            row("peak RSS", String(format: "%.0f MB", Double(peakRSSBytes) / 1_048_576)),
            row("RSS per live session at 10k sessions", String(format: "%.0f bytes", bytesPerSession10k)),
            row("RSS per live session at 100k sessions", String(format: "%.0f bytes", bytesPerSession100k)),
        ].joined(separator: "\n")
    }

    /// The plot (BenchPlot): throughput over time with both baselines, latency percentiles.
    var svg: String { BenchPlot(report: self).svg }
}

extension BenchReport {
    /// Writes bench.json and bench.svg into `directory` (made if missing).
    func write(to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: "\(directory)/bench.json"))
        try svg.write(toFile: "\(directory)/bench.svg", atomically: true, encoding: .utf8)
        print("bench: wrote \(directory)/bench.json and \(directory)/bench.svg")
    }
}

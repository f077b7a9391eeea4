import Foundation

/// The latency run and its floor, reduced to what the report shows: percentiles of each, the
/// split of ZoneStream's latency at the moment it produced the zone change, and the curves.
struct LatencyFigures {
    let zoneStream: [Double]
    let floor: [Double]
    let untilProduced: [Double]
    let outputPath: [Double]
    /// The samples per second ZoneStream's run achieved.
    let zoneStreamAchievedRate: Double

    init(zoneStream: LatencyRun.Result, floor: LatencyRun.Result) {
        zoneStreamAchievedRate = zoneStream.achievedRate
        self.zoneStream = zoneStream.latenciesMs.sorted()
        self.floor = floor.latenciesMs.sorted()
        untilProduced = zoneStream.untilProducedMs.sorted()
        outputPath = zip(zoneStream.latenciesMs, zoneStream.untilProducedMs).map { $0 - $1 }.sorted()
    }

    /// ZoneStream's percentile `p` (0...1), or of `values`.
    func percentile(_ p: Double, of values: [Double]? = nil) -> Double { Percentile.of(p, values ?? zoneStream) }

    /// The curve: 300 points evenly spaced in -log10(1 - p), from p0 to p99.9, and the maximum.
    func curve(_ values: [Double]) -> [[Double]] {
        (0...300).map { step -> [Double] in
            let p = 1 - pow(10, -Double(step) / 100)
            return [p * 100, percentile(p, of: values)]
        } + [[100, values.last ?? 0]]
    }

    func printSummary() {
        print(
            String(
                format:
                    "bench: latency p50 / p99: %.1f / %.1f ms until ZoneStream produced the zone change, %.1f / %.1f ms from there until it was read",
                percentile(0.5, of: untilProduced), percentile(0.99, of: untilProduced),
                percentile(0.5, of: outputPath), percentile(0.99, of: outputPath)))
        print(
            String(
                format:
                    "bench: latency p50 / p99 / p99.9: ZoneStream %.1f / %.1f / %.1f ms, the Kafka path alone (floor) %.1f / %.1f / %.1f ms",
                percentile(0.5), percentile(0.99), percentile(0.999),
                percentile(0.5, of: floor), percentile(0.99, of: floor), percentile(0.999, of: floor)))
    }
}

import Foundation

/// The benchmark's results: printed as a table, written as JSON and as an SVG plot.
struct BenchReport: Codable {
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
    var latencyAchievedSamplesPerSecond: Double
    var latencyP50Ms: Double
    var latencyP99Ms: Double
    var latencyP999Ms: Double
    var peakRSSBytes: Int
    var bytesPerSession10k: Double
    var bytesPerSession100k: Double
    /// (seconds since start, records processed per second) during the throughput run.
    var throughputOverTime: [[Double]]
    /// Sorted latencies in ms (a sample of up to 2000), for the distribution plot.
    var latencyDistributionMs: [Double]
    /// The same measures on the load generator's gym traffic, with the Kafka I/O floor.
    var gym: GymRun.Figures

    var table: String {
        func row(_ name: String, _ value: String) -> String { "| \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) | \(value) |" }
        return [
            "| measure | value |", "| --- | --- |",
            row("bare librdkafka consumer (ceiling), records/s", String(format: "%.0f", ceilingRecordsPerSecond)),
            row("ZoneStream end to end, records/s", String(format: "%.0f", zoneStreamRecordsPerSecond)),
            row("ZoneStream / ceiling", String(format: "%.2f", ratio)),
            row("with live views for /sessions and /board, records/s", String(format: "%.0f", liveViewsRecordsPerSecond)),
            row("latency at \(latencyTargetSamplesPerSecond) samples/s: p50 / p99 / p99.9", String(format: "%.1f / %.1f / %.1f ms", latencyP50Ms, latencyP99Ms, latencyP999Ms)),
            row("peak RSS", String(format: "%.0f MB", Double(peakRSSBytes) / 1_048_576)),
            row("RSS per live session at 10k sessions", String(format: "%.0f bytes", bytesPerSession10k)),
            row("RSS per live session at 100k sessions", String(format: "%.0f bytes", bytesPerSession100k)),
        ].joined(separator: "\n")
    }

    /// Two panels: throughput over time, and the latency distribution (percentile vs ms).
    var svg: String {
        let width = 900.0, height = 320.0, panel = 420.0
        func polyline(_ points: [(Double, Double)], xMax: Double, yMax: Double, left: Double) -> String {
            let coordinates = points.map { point in
                String(format: "%.1f,%.1f", left + 40 + point.0 / max(xMax, 1e-9) * (panel - 60), height - 40 - point.1 / max(yMax, 1e-9) * (height - 80))
            }
            return "<polyline fill=\"none\" stroke=\"#d9480f\" stroke-width=\"2\" points=\"\(coordinates.joined(separator: " "))\"/>"
        }
        let throughput = throughputOverTime.map { ($0[0], $0[1]) }
        let tMax = throughput.map(\.0).max() ?? 1, rMax = (throughput.map(\.1).max() ?? 1) * 1.1
        let latency = latencyDistributionMs.enumerated().map { (Double($0.offset) / Double(max(1, latencyDistributionMs.count - 1)) * 100, $0.element) }
        let lMax = (latencyDistributionMs.last ?? 1) * 1.1
        func axes(_ left: Double, _ title: String, _ x: String, _ y: String) -> String {
            """
            <text x="\(left + 40)" y="20" font-size="14" font-family="sans-serif">\(title)</text>
            <line x1="\(left + 40)" y1="\(height - 40)" x2="\(left + panel - 20)" y2="\(height - 40)" stroke="black"/>
            <line x1="\(left + 40)" y1="40" x2="\(left + 40)" y2="\(height - 40)" stroke="black"/>
            <text x="\(left + 40)" y="\(height - 10)" font-size="11" font-family="sans-serif">\(x)</text>
            <text x="\(left + 44)" y="52" font-size="11" font-family="sans-serif">\(y)</text>
            """
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" style="background:white">
            \(axes(0, "ZoneStream throughput (records/s)", String(format: "time, 0 to %.1f s", tMax), String(format: "max %.0f/s", rMax / 1.1)))
            \(polyline(throughput, xMax: tMax, yMax: rMax, left: 0))
            \(axes(panel + 40, "Sample-to-zone-change latency", "percentile 0 to 100", String(format: "max %.1f ms", lMax / 1.1)))
            \(polyline(latency, xMax: 100, yMax: lMax, left: panel + 40))
            </svg>
            """
    }
}

import Foundation

/// The peers' plot as a self-contained SVG: records per CPU-second on the gym records for
/// every client of the measurement (the bare consumer and the Kafka I/O floor bound them all),
/// and each engine's produce-to-zone-change latency at the measurement's fixed rate (p50, p99 and
/// p99.9). Both axes are logarithmic: the clients differ by orders of magnitude.
struct PeersPlot {
    let report: PeersReport

    private static let width = 1160.0
    private static let rowHeight = 34.0
    private static var percentiles: [(String, String, KeyPath<PeerLatency.Figures, Double>)] {
        [
            ("p50", "#2f9e44", \.p50Ms), ("p99", "#f08c00", \.p99Ms), ("p99.9", "#c92a2a", \.p999Ms),
        ]
    }

    /// Tall enough for the longer panel, its axis labels, the legend and the caption.
    private var height: Double {
        Double(max(report.latency.count, report.peers.count + 3)) * Self.rowHeight + 170
    }

    var svg: String {
        let height = height
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(Self.width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
        ]
        parts += throughputPanel(left: 170, width: 360)
        parts += latencyPanel(left: 740, width: 380)
        parts.append(
            BenchPlot.text(
                20, height - 20,
                "\(report.broker), \(report.machine); \(BenchPlot.grouped(report.gymRecords)) gym records; "
                    + "each engine measured in one run", size: 12))
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// Records per CPU-second, from the medians of CPU-seconds per million records.
    private var throughputRows: [(name: String, colour: String, recordsPerCPUSecond: Double)] {
        func perCPUSecond(_ cpuSecondsPerMillion: Double) -> Double { 1_000_000 / max(cpuSecondsPerMillion, 1e-9) }
        var rows = [
            ("bare consumer", "#495057", perCPUSecond(report.bareConsumer.cpuSecondsPerMillionRecords)),
            ("Kafka I/O floor", "#1864ab", perCPUSecond(report.floor.cpuSecondsPerMillionRecords)),
            ("ZoneStream", "#d9480f", perCPUSecond(report.zoneStream.cpuSecondsPerMillionRecords)),
        ]
        rows += report.peers.map { ($0.peer, "#868e96", perCPUSecond($0.cpuSecondsPerMillionRecords.median)) }
        return rows
    }

    private func throughputPanel(left: Double, width: Double) -> [String] {
        let rows = throughputRows
        let scale = LogScale(left: left, width: width, values: rows.map(\.recordsPerCPUSecond))
        var parts = [
            BenchPlot.text(20, 30, "Records per CPU-second on the gym records (log scale)", size: 15, bold: true)
        ]
        let bottom = 60 + Double(rows.count) * Self.rowHeight
        parts += scale.axis(top: 50, bottom: bottom) { Self.compact($0) }
        for (index, row) in rows.enumerated() {
            let y = 60 + Double(index) * Self.rowHeight
            parts.append(BenchPlot.text(left - 10, y + 17, row.name, anchor: "end"))
            parts.append(
                String(
                    format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"22\" fill=\"%@\"/>", left, y + 2,
                    max(scale.x(row.recordsPerCPUSecond) - left, 1), row.colour))
            parts.append(
                BenchPlot.text(scale.x(row.recordsPerCPUSecond) + 6, y + 17, Self.compact(row.recordsPerCPUSecond)))
        }
        return parts
    }

    private func latencyPanel(left: Double, width: Double) -> [String] {
        let rows = report.latency
        let values = rows.flatMap { row in Self.percentiles.map { row[keyPath: $0.2] } }
        let scale = LogScale(left: left, width: width, values: values)
        let rate = rows.first.map { "\(BenchPlot.grouped($0.samplesPerSecond))/s for \($0.seconds) s" } ?? ""
        var parts = [BenchPlot.text(620, 30, "Sample to zone change, ms (log scale), at \(rate)", size: 15, bold: true)]
        let bottom = 60 + Double(rows.count) * Self.rowHeight
        parts += scale.axis(top: 50, bottom: bottom) { BenchPlot.trim(($0 * 10).rounded() / 10) }
        for (index, row) in rows.enumerated() {
            let y = 60 + Double(index) * Self.rowHeight + 13
            parts.append(
                BenchPlot.text(left - 10, y + 4, row.peer == "zonestream" ? "ZoneStream" : row.peer, anchor: "end"))
            parts.append(BenchPlot.line(scale.x(row.p50Ms), y, scale.x(row.p999Ms), y, "#adb5bd", width: 2))
            for (_, colour, path) in Self.percentiles {
                parts.append(
                    String(
                        format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%@\"/>", scale.x(row[keyPath: path]), y,
                        colour))
            }
        }
        for (index, (name, colour, _)) in Self.percentiles.enumerated() {
            let x = left + Double(index) * 70
            parts.append(
                String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%@\"/>", x, bottom + 45, colour))
            parts.append(BenchPlot.text(x + 9, bottom + 49, name))
        }
        return parts
    }

    /// 1.2 M, 71 k, 950.
    static func compact(_ value: Double) -> String {
        switch value {
        case 1_000_000...: String(format: "%.2g M", value / 1_000_000)
        case 1_000...: String(format: "%.3g k", value / 1_000)
        default: String(format: "%.3g", value)
        }
    }

    /// Where a positive value lies on a logarithmic axis spanning whole powers of ten.
    private struct LogScale {
        let left: Double
        let width: Double
        let low: Double
        let high: Double

        init(left: Double, width: Double, values: [Double]) {
            self.left = left
            self.width = width
            let positive = values.filter { $0 > 0 }
            low = floor(log10(positive.min() ?? 1))
            high = max(ceil(log10(positive.max() ?? 10)), low + 1)
        }

        func x(_ value: Double) -> Double { left + (log10(max(value, 1e-9)) - low) / (high - low) * width }

        func axis(top: Double, bottom: Double, label: (Double) -> String) -> [String] {
            var parts = [BenchPlot.line(left, bottom, left + width, bottom, "black")]
            for power in stride(from: low, through: high, by: 1) {
                let value = pow(10, power)
                parts.append(BenchPlot.line(x(value), top, x(value), bottom + 5, "#dee2e6"))
                parts.append(BenchPlot.text(x(value), bottom + 20, label(value), anchor: "middle"))
            }
            return parts
        }
    }
}

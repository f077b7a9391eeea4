import Foundation

/// The benchmark's plot as a self-contained SVG a person can read: throughput over time on
/// the gym traffic for ZoneStream and both baselines with the goal lines, the latency
/// percentile curve on log axes with its goals, and the run's parameters in the caption.
struct BenchPlot {
    let report: BenchReport

    private static let width = 1160.0
    private static let height = 545.0
    static let top = 50.0
    static let plotHeight = 330.0
    static let font = "font-family=\"sans-serif\""

    var svg: String {
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(Self.width))\" height=\"\(Int(Self.height))\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
        ]
        parts += throughputPanel(left: 80, width: 560)
        parts += latencyPanel(left: 760, width: 360)
        parts += caption(y: Self.top + Self.plotHeight + 60)
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    // MARK: throughput

    private func throughputPanel(left: Double, width: Double) -> [String] {
        let gym = report.gym
        let series: [(String, String, [[Double]])] = [
            ("ZoneStream (live views on)", "#d9480f", gym.zoneStreamTimeline),
            ("Kafka I/O floor", "#1864ab", gym.floorTimeline),
            ("bare consumer", "#495057", gym.bareConsumerTimeline),
        ]
        let xMax = series.flatMap { $0.2.map { $0[0] } }.max() ?? 1
        let yMax = max(series.flatMap { $0.2.map { $0[1] } }.max() ?? 1, 1_000_000) * 1.1
        let scale = LinearScale(
            left: left, width: width, xTicks: Self.niceTicks(upTo: xMax), yTicks: Self.niceTicks(upTo: yMax))
        var parts = [
            Self.text(
                left, Self.top - 20,
                "Throughput on the load generator's gym traffic (\(Self.grouped(gym.mix.records)) records)", size: 15,
                bold: true)
        ]
        parts += Self.frame(left: left, width: width)
        parts += throughputAxes(scale)
        parts += throughputGoals(scale)
        for (index, (name, colour, points)) in series.enumerated() {
            parts.append(Self.polyline(points.map { (scale.x($0[0]), scale.y($0[1])) }, colour))
            parts.append(
                Self.line(
                    left + 10, Self.top + 12 + Double(index) * 16, left + 34, Self.top + 12 + Double(index) * 16,
                    colour, width: 3))
            parts.append(Self.text(left + 40, Self.top + 16 + Double(index) * 16, name, size: 12))
        }
        return parts
    }

    /// Where a value lies on a linear panel: x from `left` over `width`, y over the plot's
    /// height, each axis ending at its last tick.
    private struct LinearScale {
        let left: Double
        let width: Double
        let xTicks: [Double]
        let yTicks: [Double]

        var xEnd: Double { xTicks.last ?? 1 }
        var yEnd: Double { yTicks.last ?? 1 }
        func x(_ value: Double) -> Double { left + value / xEnd * width }
        func y(_ value: Double) -> Double { BenchPlot.top + BenchPlot.plotHeight - value / yEnd * BenchPlot.plotHeight }
    }

    private func throughputAxes(_ scale: LinearScale) -> [String] {
        let (left, width, bottom) = (scale.left, scale.width, Self.top + Self.plotHeight)
        var parts: [String] = []
        for tick in scale.xTicks {
            parts.append(Self.line(scale.x(tick), bottom, scale.x(tick), bottom + 5, "black"))
            parts.append(Self.text(scale.x(tick), bottom + 20, Self.trim(tick), anchor: "middle"))
        }
        for tick in scale.yTicks {
            parts.append(Self.line(left, scale.y(tick), left + width, scale.y(tick), "#e9ecef"))
            parts.append(
                Self.text(left - 8, scale.y(tick) + 4, tick == 0 ? "0" : "\(Self.trim(tick / 1000)) k", anchor: "end"))
        }
        parts.append(Self.text(left + width / 2, bottom + 40, "seconds since the first record", anchor: "middle"))
        parts.append(Self.text(left - 60, Self.top + Self.plotHeight / 2, "records/s", anchor: "middle", rotate: true))
        return parts
    }

    /// The goals as dashed lines, and the peer's mean rate when there is one.
    private func throughputGoals(_ scale: LinearScale) -> [String] {
        let gym = report.gym
        let (left, width) = (scale.left, scale.width)
        let goals: [(String, String, Double)] = [
            ("goal 1 M records/s", "#c92a2a", 1_000_000),
            ("goal 0.8 of the floor", "#1864ab", 0.8 * gym.floorRecordsPerSecond),
            ("goal 0.5 of the bare consumer", "#495057", 0.5 * gym.bareConsumerRecordsPerSecond),
        ]
        var parts: [String] = []
        // Labels staggered along the line, so goals close in value stay readable.
        for (index, (name, colour, value)) in goals.enumerated() where value < scale.yEnd {
            parts.append(Self.line(left, scale.y(value), left + width, scale.y(value), colour, dashed: true))
            parts.append(
                Self.text(
                    left + width - 4 - Double(index) * 185, scale.y(value) - 4, name, anchor: "end", colour: colour,
                    size: 11))
        }
        for (index, peer) in report.peers.enumerated() {
            let rate = peer.recordsPerSecond.median
            let colour = ["#2b8a3e", "#862e9c", "#e67700"][index % 3]
            parts.append(Self.line(left, scale.y(rate), left + width, scale.y(rate), colour, width: 2))
            parts.append(
                Self.text(
                    left + 4 + Double(index) * 250, scale.y(rate) - 4,
                    String(
                        format: "%@ (median %.0f k/s; ZoneStream is %.1fx)", peer.peer, rate / 1000,
                        peer.zoneStreamOverPeer), colour: colour, size: 11))
        }
        return parts
    }

    // MARK: latency

    /// Percentiles on a "nines" axis (50, 90, 99, 99.9 equally spaced), milliseconds on a log axis.
    private func latencyPanel(left: Double, width: Double) -> [String] {
        let curve = report.latencyPercentilesMs.filter { $0[0] < 100 && $0[1] > 0 }
        let floorCurve = report.latencyFloorPercentilesMs.filter { $0[0] < 100 && $0[1] > 0 }
        let nines = 3.0
        func x(_ percentile: Double) -> Double { left + min(-log10(1 - percentile / 100), nines) / nines * width }
        let yTicks = [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
        let highest = max((curve + floorCurve).map { $0[1] }.max() ?? 100, 60)
        let yTop = yTicks.first { $0 >= highest } ?? 5000
        let yBottom = max(0.5, yTicks.last { $0 <= ((curve + floorCurve).map { $0[1] }.min() ?? 1) } ?? 0.5)
        func y(_ ms: Double) -> Double {
            let fraction = (log10(max(ms, yBottom)) - log10(yBottom)) / (log10(yTop) - log10(yBottom))
            return Self.top + Self.plotHeight - fraction * Self.plotHeight
        }
        var parts = [
            Self.text(
                left, Self.top - 20,
                "Sample to zone change, \(Self.grouped(report.latencyTargetSamplesPerSecond)) samples/s (\(report.latencyTraffic), \(report.latencyPartitions) partitions)",
                size: 15, bold: true)
        ]
        parts += Self.frame(left: left, width: width)
        for (percentile, label) in [(0.0, "0"), (50.0, "50"), (90.0, "90"), (99.0, "99"), (99.9, "99.9")] {
            parts.append(
                Self.line(
                    x(percentile), Self.top + Self.plotHeight, x(percentile), Self.top + Self.plotHeight + 5, "black"))
            parts.append(Self.line(x(percentile), Self.top, x(percentile), Self.top + Self.plotHeight, "#e9ecef"))
            parts.append(Self.text(x(percentile), Self.top + Self.plotHeight + 20, label, anchor: "middle"))
        }
        for tick in yTicks where tick >= yBottom && tick <= yTop {
            parts.append(Self.line(left, y(tick), left + width, y(tick), "#e9ecef"))
            parts.append(Self.text(left - 8, y(tick) + 4, "\(Self.trim(tick)) ms", anchor: "end"))
        }
        parts.append(
            Self.text(
                left + width / 2, Self.top + Self.plotHeight + 40, "percentile (log scale of 1 - p)", anchor: "middle"))
        for (percentile, goal) in [(99.0, 25.0), (99.9, 50.0)] {
            parts.append(
                Self.line(x(percentile) - 36, y(goal), x(percentile), y(goal), "#c92a2a", dashed: true, width: 2))
            parts.append(
                Self.text(
                    x(percentile) - 38, y(goal) + 4, "goal p\(Self.trim(percentile)) < \(Int(goal)) ms", anchor: "end",
                    colour: "#c92a2a", size: 11))
        }
        parts.append(Self.polyline(floorCurve.map { (x($0[0]), y($0[1])) }, "#495057", dashed: true))
        parts.append(Self.polyline(curve.map { (x($0[0]), y($0[1])) }, "#d9480f"))
        parts.append(
            Self.text(
                left + 8, Self.top + 16,
                String(
                    format: "ZoneStream: p50 %.1f, p99 %.1f, p99.9 %.1f ms",
                    report.latencyP50Ms, report.latencyP99Ms, report.latencyP999Ms), colour: "#d9480f", size: 12))
        parts.append(
            Self.text(
                left + 8, Self.top + 32,
                String(
                    format: "Kafka path alone (floor): %.1f, %.1f, %.1f ms",
                    report.latencyFloorP50Ms, report.latencyFloorP99Ms, report.latencyFloorP999Ms), colour: "#495057",
                size: 12))
        return parts
    }

    // MARK: caption

    private func caption(y: Double) -> [String] {
        let gym = report.gym
        let runs = gym.liveViewRuns.map {
            String(format: "%@ %.0f k", $0.liveViews ? "on" : "off", $0.recordsPerSecond / 1000)
        }
        let lines = [
            "Machine: \(report.machine). Broker: \(report.broker). \(report.partitions) partitions, \(report.workers) workers.",
            "Traffic (the load generator's gym classes): \(gym.mix.summary); \(gym.mix.sessions) sessions;",
            String(
                format:
                    "%.0f zone changes and %.0f finished workouts per million records; outputs %d of %d bytes on average.",
                gym.zoneChangesPerMillionRecords, gym.finishedWorkoutsPerMillionRecords, gym.outputRecords,
                gym.outputMeanBytes),
            "Medians of 3 rounds (spread): ZoneStream \(gym.zoneStreamRates.text("%.0f k/s", scale: 0.001)), "
                + "\(gym.ratioToFloor.text("%.2f")) of the floor (\(gym.floorRates.text("%.0f k/s", scale: 0.001))), "
                + "\(gym.ratioToBareConsumer.text("%.2f")) of the bare consumer (\(gym.bareConsumerRates.text("%.0f k/s", scale: 0.001))).",
            "ZoneStream's runs in order (live views on/off): \(runs.joined(separator: ", ")).",
        ]
        return lines.enumerated().map { Self.text(40, y + Double($0.offset) * 18, $0.element, size: 12) }
    }
}

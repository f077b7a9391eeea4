import Foundation

/// The benchmark's plot as a self-contained SVG a person can read: throughput over time on
/// the gym traffic for ZoneStream and both baselines with the goal lines, the latency
/// percentile curve on log axes with its goals, and the run's parameters in the caption.
struct BenchPlot {
    let report: BenchReport

    private static let width = 1160.0
    private static let height = 545.0
    private static let top = 50.0
    private static let plotHeight = 330.0
    private static let font = "font-family=\"sans-serif\""

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
        let goals: [(String, String, Double)] = [
            ("goal 1 M records/s", "#c92a2a", 1_000_000),
            ("goal 0.8 of the floor", "#1864ab", 0.8 * gym.floorRecordsPerSecond),
            ("goal 0.5 of the bare consumer", "#495057", 0.5 * gym.bareConsumerRecordsPerSecond),
        ]
        let xMax = series.flatMap { $0.2.map { $0[0] } }.max() ?? 1
        let yMax = max(series.flatMap { $0.2.map { $0[1] } }.max() ?? 1, 1_000_000) * 1.1
        let xTicks = Self.niceTicks(upTo: xMax)
        let yTicks = Self.niceTicks(upTo: yMax)
        let xEnd = xTicks.last ?? xMax, yEnd = yTicks.last ?? yMax
        func x(_ value: Double) -> Double { left + value / xEnd * width }
        func y(_ value: Double) -> Double { Self.top + Self.plotHeight - value / yEnd * Self.plotHeight }
        var parts = [
            Self.text(
                left, Self.top - 20,
                "Throughput on the load generator's gym traffic (\(Self.grouped(gym.mix.records)) records)", size: 15,
                bold: true)
        ]
        parts += Self.frame(left: left, width: width)
        for tick in xTicks {
            parts.append(
                Self.line(x(tick), Self.top + Self.plotHeight, x(tick), Self.top + Self.plotHeight + 5, "black"))
            parts.append(Self.text(x(tick), Self.top + Self.plotHeight + 20, Self.trim(tick), anchor: "middle"))
        }
        for tick in yTicks {
            parts.append(Self.line(left, y(tick), left + width, y(tick), "#e9ecef"))
            parts.append(
                Self.text(left - 8, y(tick) + 4, tick == 0 ? "0" : "\(Self.trim(tick / 1000)) k", anchor: "end"))
        }
        parts.append(
            Self.text(
                left + width / 2, Self.top + Self.plotHeight + 40, "seconds since the first record", anchor: "middle"))
        parts.append(Self.text(left - 60, Self.top + Self.plotHeight / 2, "records/s", anchor: "middle", rotate: true))
        // Labels staggered along the line, so goals close in value stay readable.
        for (index, (name, colour, value)) in goals.enumerated() where value < yEnd {
            parts.append(Self.line(left, y(value), left + width, y(value), colour, dashed: true))
            parts.append(
                Self.text(
                    left + width - 4 - Double(index) * 185, y(value) - 4, name, anchor: "end", colour: colour, size: 11)
            )
        }
        if let peer = report.peer {
            let rate = peer.recordsPerSecond
            parts.append(Self.line(left, y(rate), left + width, y(rate), "#2b8a3e", width: 2))
            parts.append(
                Self.text(
                    left + 4, y(rate) - 4,
                    String(
                        format: "%@ (mean %.0f k/s; ZoneStream is %.1fx)",
                        peer.peer, rate / 1000, gym.zoneStreamRecordsPerSecond / rate), colour: "#2b8a3e", size: 11))
        }
        for (index, (name, colour, points)) in series.enumerated() {
            parts.append(Self.polyline(points.map { (x($0[0]), y($0[1])) }, colour))
            parts.append(
                Self.line(
                    left + 10, Self.top + 12 + Double(index) * 16, left + 34, Self.top + 12 + Double(index) * 16,
                    colour, width: 3))
            parts.append(Self.text(left + 40, Self.top + 16 + Double(index) * 16, name, size: 12))
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

    // MARK: drawing

    private static func frame(left: Double, width: Double) -> [String] {
        [
            line(left, top + plotHeight, left + width, top + plotHeight, "black"),
            line(left, top, left, top + plotHeight, "black"),
        ]
    }

    private static func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ colour: String, dashed: Bool = false,
        width: Double = 1
    ) -> String {
        String(
            format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%@\" stroke-width=\"%.1f\"%@/>",
            x1, y1, x2, y2, colour, width, dashed ? " stroke-dasharray=\"6 4\"" : "")
    }

    private static func polyline(_ points: [(Double, Double)], _ colour: String, dashed: Bool = false) -> String {
        let coordinates = points.map { String(format: "%.1f,%.1f", $0.0, $0.1) }.joined(separator: " ")
        let dash = dashed ? " stroke-dasharray=\"6 4\"" : ""
        return "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash) points=\"\(coordinates)\"/>"
    }

    private static func text(
        _ x: Double, _ y: Double, _ content: String, anchor: String = "start", colour: String = "black", size: Int = 12,
        bold: Bool = false, rotate: Bool = false
    ) -> String {
        let transform = rotate ? String(format: " transform=\"rotate(-90 %.1f %.1f)\"", x, y) : ""
        return String(
            format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" %@ fill=\"%@\" text-anchor=\"%@\"%@%@>",
            x, y, size, font, colour, anchor, bold ? " font-weight=\"bold\"" : "", transform) + escaped(content)
            + "</text>"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Ticks at 1, 2 or 5 times a power of ten, from 0 to at least `upTo`.
    static func niceTicks(upTo maximum: Double) -> [Double] {
        let rough = max(maximum, 1e-9) / 5
        let power = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? rough
        return stride(from: 0, through: maximum + step * 0.999, by: step).map { $0 }
    }

    private static func trim(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }

    private static func grouped(_ value: Int) -> String {
        let digits = String(value)
        return digits.reversed().enumerated().reduce(into: "") { text, element in
            if element.offset > 0 && element.offset % 3 == 0 { text.insert(",", at: text.startIndex) }
            text.insert(element.element, at: text.startIndex)
        }
    }
}

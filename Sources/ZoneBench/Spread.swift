import Foundation

/// A figure measured in several runs of one measurement: its median, and its spread, the range
/// of the runs as a share of the median (0.08: the runs lie within 8% of one another).
struct Spread: Codable {
    var median: Double
    var spread: Double
    var runs: [Double]

    init(_ runs: [Double]) {
        self.runs = runs
        median = Self.median(runs)
        spread = median > 0 ? ((runs.max() ?? 0) - (runs.min() ?? 0)) / median : 0
    }

    /// The middle value (the mean of the two middle ones for an even count; 0 for none).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// "1.62 (±4%)": the median and the spread in percent of it.
    func text(_ format: String = "%.0f", scale: Double = 1) -> String {
        String(format: format, median * scale) + String(format: " (spread %.0f%%)", spread * 100)
    }
}

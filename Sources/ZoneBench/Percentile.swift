/// Percentiles of a run's figures, nearest rank: the value below which a share `p` of the
/// sorted values lie (0 for none), as every table of the benchmark reports them.
enum Percentile {
    static func of(_ p: Double, _ sorted: [Double]) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))]
    }
}

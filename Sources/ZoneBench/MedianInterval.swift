import Foundation

/// A confidence interval for the median of paired ratios, without assuming how they are
/// distributed: two of the sorted values themselves (order statistics), chosen with the sign
/// test's binomial counts.
///
/// On a shared two-core machine one round's ratio of two builds moves by a third either way,
/// so a median alone cannot say whether a 3% difference is a build's or the machine's. When
/// the interval holds 1, the measurement cannot tell the two builds apart.
struct MedianInterval: Codable, Equatable {
    var low: Double
    var high: Double
    /// How often an interval made this way holds the true median: at least `wanted` when there
    /// are values enough (6 for 95%); with fewer, the whole range, with the confidence it has.
    var confidence: Double

    /// The narrowest interval [x(k), x(n+1-k)] whose confidence is at least `wanted`, or the
    /// whole range when no narrower one reaches it; nil for no values.
    init?(_ values: [Double], wanted: Double = 0.95) {
        let sorted = values.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        let count = sorted.count
        // `below` sums P(i of n values below the median) for i < rank, a fair sign each: the
        // chance that the interval from the rank-th value misses the median on one side.
        var below = 0.0
        var term = pow(0.5, Double(count))
        var rank = 0
        while rank < count / 2 {
            let tailWithNext = below + term
            guard 1 - 2 * tailWithNext >= wanted else { break }
            below = tailWithNext
            rank += 1
            term *= Double(count - rank + 1) / Double(rank)
        }
        guard rank > 0 else {
            low = first
            high = last
            confidence = 1 - 2 * pow(0.5, Double(count))
            return
        }
        // `rank` tail terms fit: the interval runs from the rank-th value to the rank-th from
        // the top (one-based).
        low = sorted[rank - 1]
        high = sorted[count - rank]
        confidence = 1 - 2 * below
    }

    /// "0.90-1.05 (96%)".
    var text: String { String(format: "%.2f-%.2f (%.0f%%)", low, high, confidence * 100) }
}

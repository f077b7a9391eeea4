import Foundation

/// A workout's effort (docs/reference/contract.md, "Effort"): the `effort` object of a finished
/// workout, and the running figures of a live session.
public struct WorkoutEffort: Sendable, Equatable {
    public struct HeartRate: Sendable, Equatable {
        /// The maximum the bands are fractions of, reported as `max_hr`.
        public let maximumHeartRate: Double
        /// Milliseconds in intensity bands 0 ... 5.
        public let intensityMs: [Int64]
        /// Points in tenths: sum of band x minutes, rounded half away from zero to one decimal.
        public let pointsTenths: Int64
        /// Whole kilocalories; nil when the profile lacks age, weight or sex.
        public let caloriesKcal: Int64?

        public init(maximumHeartRate: Double, intensityMs: [Int64], pointsTenths: Int64, caloriesKcal: Int64?) {
            self.maximumHeartRate = maximumHeartRate
            self.intensityMs = intensityMs
            self.pointsTenths = pointsTenths
            self.caloriesKcal = caloriesKcal
        }

        /// The effort on Apple's 1-10 scale (HealthKit's workout effort score), so a workout can be
        /// written back as an effort sample: twice the time-weighted mean band, exactly, halves
        /// away from zero, at least 1; nil when no time was counted in any band.
        public var score: Int64? {
            let total = intensityMs.reduce(0, +)
            guard total > 0 else { return nil }
            let weighted = intensityMs.enumerated().reduce(Int64(0)) { $0 + Int64($1.offset) * $1.element }
            // round(2 x weighted / total) = (4 x weighted + total) / (2 x total); 128 bits for any sums.
            let rounded = (4 * Int128(weighted) + Int128(total)) / (2 * Int128(total))
            return max(1, Int64(clamping: rounded))
        }
    }

    /// Present when the session has an accepted heart-rate sample and a known maximum.
    public let heartRate: HeartRate?
    /// Work from power in tenths of a kilojoule; present when the session has a power sample.
    public let kilojoulesTenths: Int64?

    public init(heartRate: HeartRate?, kilojoulesTenths: Int64?) {
        self.heartRate = heartRate
        self.kilojoulesTenths = kilojoulesTenths
    }

    /// No effort counted (`{}`).
    public static let none = WorkoutEffort(heartRate: nil, kilojoulesTenths: nil)

    /// `numerator / unit` in tenths, halves away from zero (numerator >= 0).
    static func tenths(_ numerator: Int64, per unit: Int64) -> Int64 {
        let tenth = unit / 10
        return (numerator + tenth / 2) / tenth
    }

    /// Kilojoules in tenths from watts x milliseconds: the exact sum / 1,000,000, one decimal.
    static func kilojoulesTenths(wattMilliseconds: Double) -> Int64 {
        if wattMilliseconds == wattMilliseconds.rounded(), abs(wattMilliseconds) < 9e15 {
            return tenths(Int64(wattMilliseconds), per: 1_000_000)
        }
        guard var work = SystemZones.exactDecimal(wattMilliseconds) else { return 0 }
        work = work / Decimal(100_000)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &work, 0, .plain)
        return NSDecimalNumber(decimal: rounded).int64Value
    }
}

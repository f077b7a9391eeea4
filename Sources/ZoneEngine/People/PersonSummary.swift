/// A `person_summary` (docs/reference/contract.md): a person's training over the 7 and 28 UTC days
/// that end with the day of their latest counted workout.
public struct PersonSummary: Sendable, Equatable {
    /// Totals of the workouts in one window.
    public struct Window: Sendable, Equatable {
        public var workouts = 0
        public var durationMs: Int64 = 0
        public var pointsTenths: Int64 = 0
        public var caloriesKcal: Int64 = 0
        public var kilojoulesTenths: Int64 = 0

        public init() {}

        mutating func add(_ workout: CountedWorkout) {
            workouts += 1
            durationMs += workout.durationMs
            pointsTenths += workout.pointsTenths
            caloriesKcal += workout.caloriesKcal
            kilojoulesTenths += workout.kilojoulesTenths
        }
    }

    public let person: String
    /// The latest end among the person's counted workouts.
    public let asOfTimestamp: Int64
    /// The session whose workout caused this summary.
    public let lastSession: String
    public let days7: Window
    public let days28: Window

    /// (days_7 points / 7) / (days_28 points / 28) in hundredths, halves away from zero; nil
    /// when the 28 days hold no points.
    public var acuteChronicRatioHundredths: Int64? {
        guard days28.pointsTenths > 0 else { return nil }
        // 4 x p7 / p28 x 100, rounded: (2 x 400 x p7 + p28) / (2 x p28), in 128 bits so that no
        // sum of points can overflow it; p7 <= p28, so the result is at most 400.
        let (acute, chronic) = (Int128(days7.pointsTenths), Int128(days28.pointsTenths))
        return Int64(clamping: (800 * acute + chronic) / (2 * chronic))
    }
}

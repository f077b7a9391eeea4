/// A session's heart-rate effort so far: milliseconds per intensity band and the calorie
/// formula's sums, credited once per covered interval alongside time in zone.
struct HeartRateEffort: Sendable {
    let parameters: HeartRateEffortParameters
    /// The parameters' band floors and calorie floor, copied into the session: read through
    /// the shared parameters object, they cost a cache miss per sample once thousands of
    /// sessions are live (perf: a third of a worker's per-sample time), for 48 bytes a session.
    private let bandFloors: InlineArray<5, Double>
    private let calorieFloor: Double
    var bandMs = InlineArray<6, Int64>(repeating: 0)
    /// Milliseconds of intervals whose heart rate burns energy by the calorie formula.
    var calorieMs: Int64 = 0
    /// Their heart rate times their milliseconds, summed.
    var calorieValueMs: Double = 0

    init(parameters: HeartRateEffortParameters) {
        self.parameters = parameters
        bandFloors = parameters.bandFloors
        calorieFloor = parameters.calorieFloor
    }

    /// Credits an interval of `length` milliseconds covered by `value`. No allocation, and no
    /// branch that depends on the value.
    @inline(__always)
    mutating func credit(value: Double, _ length: Int64) {
        bandMs[HeartRateEffortParameters.band(of: value, floors: bandFloors)] += length
        let burning: Int64 = value > calorieFloor ? 1 : 0
        calorieMs += burning &* length
        calorieValueMs += Double(burning) * value * Double(length)
    }

    /// What the figures are worked out from: the sums without the floors the per-sample path
    /// compares with, which is what a live view keeps.
    var credited: Credited {
        Credited(parameters: parameters, bandMs: bandMs, calorieMs: calorieMs, calorieValueMs: calorieValueMs)
    }

    /// The figures a finished workout reports.
    var summary: WorkoutEffort.HeartRate { credited.summary }

    /// A heart-rate effort's sums as credited so far, 72 bytes: copied into every live view
    /// (one per live session of its group on each instance with the endpoint on), so the
    /// floors' 48 bytes are left in the session.
    struct Credited: Sendable, Equatable {
        let parameters: HeartRateEffortParameters
        let bandMs: InlineArray<6, Int64>
        let calorieMs: Int64
        let calorieValueMs: Double

        /// The figures a finished workout (or a live view) reports.
        var summary: WorkoutEffort.HeartRate {
            let intensity = (0..<6).map { bandMs[$0] }
            let weighted = intensity.enumerated().reduce(Int64(0)) { $0 + Int64($1.offset) * $1.element }
            return WorkoutEffort.HeartRate(
                maximumHeartRate: parameters.maximumHeartRate, intensityMs: intensity,
                pointsTenths: WorkoutEffort.tenths(weighted, per: 60_000),
                caloriesKcal: parameters.calories.map {
                    $0.kilocalories(milliseconds: calorieMs, heartRateMilliseconds: calorieValueMs)
                })
        }

        static func == (lhs: Credited, rhs: Credited) -> Bool {
            lhs.parameters === rhs.parameters && lhs.calorieMs == rhs.calorieMs
                && lhs.calorieValueMs == rhs.calorieValueMs
                && (0..<lhs.bandMs.count).allSatisfy { lhs.bandMs[$0] == rhs.bandMs[$0] }
        }
    }
}

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
}

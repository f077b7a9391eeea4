/// A class day's running figures: what its next summary reports, kept up to date as each
/// workout is counted, so that a summary costs the same however many workouts the day has
/// (summing and sorting the day's workouts for each new one would cost a class of 1,000
/// workouts a million sums and a thousand sorts of up to 1,000 rows).
struct ClassDayTotals: Sendable, Equatable {
    private(set) var asOfTimestamp: Int64?
    private(set) var people: Set<String> = []
    private(set) var durationMs: Int64 = 0
    private(set) var pointsTenths: Int64 = 0
    private(set) var caloriesKcal: Int64 = 0
    private(set) var kilojoulesTenths: Int64 = 0
    private(set) var intensityMs = [Int64](repeating: 0, count: 6)
    private(set) var compliance = PerQuantity<ClassWorkout.ComplianceCounts?>(repeating: nil)
    /// The best workouts so far, best first, at most ``ClassSummary/leaderboardSize``: one that
    /// is not among them now never will be, as later workouts can only rank above it.
    private(set) var leaderboard: [ClassWorkout] = []

    init() {}

    /// The totals of `workouts`, counted in their order (a restored day's).
    init(_ workouts: [ClassWorkout]) {
        for workout in workouts { add(workout) }
    }

    mutating func add(_ workout: ClassWorkout) {
        asOfTimestamp = max(asOfTimestamp ?? workout.endTimestamp, workout.endTimestamp)
        if let person = workout.person { people.insert(person) }
        durationMs += workout.durationMs
        pointsTenths += workout.pointsTenths ?? 0
        caloriesKcal += workout.caloriesKcal ?? 0
        kilojoulesTenths += workout.kilojoulesTenths ?? 0
        for band in 0..<6 { intensityMs[band] += workout.intensityMs[band] }
        for quantity in Quantity.allCases {
            guard let counts = workout.compliance?[quantity] else { continue }
            var sum = compliance[quantity] ?? ClassWorkout.ComplianceCounts(inMs: 0, countedMs: 0)
            sum.inMs += counts.inMs
            sum.countedMs += counts.countedMs
            compliance[quantity] = sum
        }
        rank(workout)
    }

    /// Places `workout` on the leaderboard after every row that ranks at least as high (so
    /// that rows that tie keep their arrival order, as a stable sort of all workouts would),
    /// dropping the row pushed past the last place.
    private mutating func rank(_ workout: ClassWorkout) {
        let place = leaderboard.firstIndex { ClassSummary.ranksAbove(workout, $0) } ?? leaderboard.count
        guard place < ClassSummary.leaderboardSize else { return }
        leaderboard.insert(workout, at: place)
        if leaderboard.count > ClassSummary.leaderboardSize { leaderboard.removeLast() }
    }
}

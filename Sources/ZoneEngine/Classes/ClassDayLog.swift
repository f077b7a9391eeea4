/// One class's counted workouts of its latest local day (contract, `class-summaries`),
/// bounded to ``maximumWorkouts``. A value type owned by the class stage's thread; its
/// snapshot is the class's changelog record.
public struct ClassDayLog: Sendable, Equatable {
    /// The most workouts one class day counts; later ones count nowhere.
    public static let maximumWorkouts = 1000
    static let millisecondsPerDay: Int64 = 86_400_000

    public let sessionClass: String
    /// The local day counted, in days since the epoch; nil before the first workout.
    public internal(set) var day: Int64?
    /// The day's counted workouts, in arrival order.
    public internal(set) var workouts: [ClassWorkout] = []
    /// The figures of `workouts`, for the next summary.
    var totals = ClassDayTotals()

    public init(sessionClass: String) {
        self.sessionClass = sessionClass
    }

    /// The local day of a time: UTC shifted by `offsetMinutes` (`class_day_offset_minutes`).
    public static func day(of timestamp: Int64, offsetMinutes: Int) -> Int64 {
        let shifted = timestamp + Int64(offsetMinutes) * 60_000
        return shifted >= 0 ? shifted / millisecondsPerDay : (shifted - millisecondsPerDay + 1) / millisecondsPerDay
    }

    /// Counts `workout` (its day by its start) and returns the summary it causes; nil when it
    /// causes none: already counted, of an earlier day than the class's latest, or past the cap.
    public mutating func count(_ workout: ClassWorkout, offsetMinutes: Int) -> ClassSummary? {
        let workoutDay = Self.day(of: workout.startTimestamp, offsetMinutes: offsetMinutes)
        if let day, workoutDay < day { return nil }
        if day != workoutDay {
            day = workoutDay
            workouts = []
            totals = ClassDayTotals()
        }
        guard !workouts.contains(where: { $0.isSameWorkout(as: workout) }), workouts.count < Self.maximumWorkouts
        else { return nil }
        workouts.append(workout)
        totals.add(workout)
        return ClassSummary(
            sessionClass: sessionClass, day: workoutDay, workouts: workouts.count, totals: totals, last: workout.session
        )
    }

    /// Whether the class's day ended two days or more before `now` (local days): no workout of
    /// it can still arrive on time, so the class may be removed to make room.
    public func isIdle(at now: Int64, offsetMinutes: Int) -> Bool {
        guard let day else { return true }
        return day < Self.day(of: now, offsetMinutes: offsetMinutes) - 1
    }
}

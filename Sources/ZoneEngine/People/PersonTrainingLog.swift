/// One person's counted workouts, bounded to the 28 UTC days the summaries look at and to
/// ``maximumWorkouts`` of them (docs/reference/contract.md, `person-summaries`). A value type
/// owned by the person stage's thread; its snapshot is the person's changelog record.
public struct PersonTrainingLog: Sendable, Equatable {
    /// The most workouts one person's 28-day window counts; later ones are not counted.
    public static let maximumWorkouts = 500
    static let millisecondsPerDay: Int64 = 86_400_000
    static let windowDays: Int64 = 28
    static let acuteDays: Int64 = 7

    public let person: String
    /// Counted workouts inside the current 28-day window, in arrival order.
    public internal(set) var workouts: [CountedWorkout] = []

    public init(person: String) {
        self.person = person
    }

    /// The UTC day of a time, counted from the epoch (times are never negative).
    static func day(of timestamp: Int64) -> Int64 { timestamp / millisecondsPerDay }

    /// The latest end among the counted workouts.
    var asOfTimestamp: Int64? { workouts.map(\.endTimestamp).max() }

    /// Whether no counted workout ends in the 28 UTC days that end with the day of `now`: the
    /// person's windows, counted back from now, are empty.
    public func isIdle(at now: Int64) -> Bool {
        guard let asOf = asOfTimestamp else { return true }
        return Self.day(of: asOf) <= Self.day(of: now) - Self.windowDays
    }

    /// Counts `workout` and returns the summary it causes; nil when it causes none: already
    /// counted, ending before the current window, or past the window's cap.
    public mutating func count(_ workout: CountedWorkout) -> PersonSummary? {
        if workouts.contains(where: { $0.isSameWorkout(as: workout) }) { return nil }
        let newAsOf = max(asOfTimestamp ?? workout.endTimestamp, workout.endTimestamp)
        let firstDay = Self.day(of: newAsOf) - (Self.windowDays - 1)
        if let asOf = asOfTimestamp, workout.endDay < Self.day(of: asOf) - (Self.windowDays - 1) { return nil }
        let inWindow = workouts.filter { $0.endDay >= firstDay }
        guard inWindow.count < Self.maximumWorkouts else { return nil }
        workouts = inWindow
        workouts.append(workout)
        return summary(lastSession: workout.session)
    }

    /// The summary of the counted workouts, as of the latest end.
    func summary(lastSession: String) -> PersonSummary? {
        guard let asOf = asOfTimestamp else { return nil }
        let lastDay = Self.day(of: asOf)
        var days7 = PersonSummary.Window()
        var days28 = PersonSummary.Window()
        for workout in workouts {
            let day = workout.endDay
            if day > lastDay - Self.windowDays { days28.add(workout) }
            if day > lastDay - Self.acuteDays { days7.add(workout) }
        }
        return PersonSummary(
            person: person, asOfTimestamp: asOf, lastSession: lastSession, days7: days7, days28: days28)
    }
}

/// A `class_summary` (contract, section 4): a class's results for one local day, from its
/// counted workouts.
public struct ClassSummary: Sendable, Equatable {
    /// One row of the leaderboard: a workout with its figures.
    public typealias Entry = ClassWorkout

    public let sessionClass: String
    /// The local day, in days since the epoch.
    public let day: Int64
    public let asOfTimestamp: Int64
    public let lastSession: String
    public let workouts: Int
    public let people: Int
    public let durationMs: Int64
    public let pointsTenths: Int64
    public let caloriesKcal: Int64
    public let kilojoulesTenths: Int64
    public let intensityMs: [Int64]
    /// Per quantity some counted workout's plan targets: summed in-target and counted ms.
    public let compliance: PerQuantity<ClassWorkout.ComplianceCounts?>
    /// The day's ten best workouts, best first.
    public let leaderboard: [Entry]

    /// The most rows the leaderboard shows.
    public static let leaderboardSize = 10

    init(sessionClass: String, day: Int64, workouts: Int, totals: ClassDayTotals, last: String) {
        self.sessionClass = sessionClass
        self.day = day
        lastSession = last
        self.workouts = workouts
        asOfTimestamp = totals.asOfTimestamp ?? 0
        people = totals.people.count
        durationMs = totals.durationMs
        pointsTenths = totals.pointsTenths
        caloriesKcal = totals.caloriesKcal
        kilojoulesTenths = totals.kilojoulesTenths
        intensityMs = totals.intensityMs
        compliance = totals.compliance
        leaderboard = totals.leaderboard
    }

    /// The leaderboard's order: points from the highest (none counts as 0), then calories
    /// likewise, then session in byte order, then start from the earliest.
    static func ranksAbove(_ lhs: ClassWorkout, _ rhs: ClassWorkout) -> Bool {
        let (leftPoints, rightPoints) = (lhs.pointsTenths ?? 0, rhs.pointsTenths ?? 0)
        if leftPoints != rightPoints { return leftPoints > rightPoints }
        let (leftCalories, rightCalories) = (lhs.caloriesKcal ?? 0, rhs.caloriesKcal ?? 0)
        if leftCalories != rightCalories { return leftCalories > rightCalories }
        if lhs.session != rhs.session { return lhs.session.utf8.lexicographicallyPrecedes(rhs.session.utf8) }
        return lhs.startTimestamp < rhs.startTimestamp
    }

    /// `YYYY-MM-DD` of a day counted from the epoch (proleptic Gregorian, as ISO 8601).
    public static func date(ofDay day: Int64) -> String {
        // Howard Hinnant's civil_from_days.
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(dayOfMonth, 2))"
    }

    /// The summary's key on `class-summaries`: `<class>@<day>`.
    public var key: String { "\(sessionClass)@\(Self.date(ofDay: day))" }
}

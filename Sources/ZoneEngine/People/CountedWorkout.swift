/// What the person stage knows of one finished workout: enough to count it in a person's
/// 7- and 28-day windows and to recognise it when it is delivered again.
public struct CountedWorkout: Sendable, Equatable {
    public var session: String
    /// With `session`, the workout's identity: a session restarted with the same start is the
    /// same workout.
    public var startTimestamp: Int64
    public var endTimestamp: Int64
    public var durationMs: Int64
    public var pointsTenths: Int64
    public var caloriesKcal: Int64
    public var kilojoulesTenths: Int64

    public init(
        session: String, startTimestamp: Int64, endTimestamp: Int64, durationMs: Int64, pointsTenths: Int64,
        caloriesKcal: Int64, kilojoulesTenths: Int64
    ) {
        self.session = session
        self.startTimestamp = startTimestamp
        self.endTimestamp = endTimestamp
        self.durationMs = durationMs
        self.pointsTenths = pointsTenths
        self.caloriesKcal = caloriesKcal
        self.kilojoulesTenths = kilojoulesTenths
    }

    /// The workout of a finished session (figures it lacks add 0).
    public init(_ summary: WorkoutSummary) {
        self.init(
            session: summary.session, startTimestamp: summary.startTimestamp, endTimestamp: summary.endTimestamp,
            durationMs: summary.durationMs, pointsTenths: summary.effort.heartRate?.pointsTenths ?? 0,
            caloriesKcal: summary.effort.heartRate?.caloriesKcal ?? 0,
            kilojoulesTenths: summary.effort.kilojoulesTenths ?? 0)
    }

    /// The largest `points_tenths`, `calories_kcal` or `kilojoules_tenths` a counted workout
    /// may carry. A workout of 2^53 ms (the longest the contract's times allow) has at most
    /// 7.6e12 points tenths and 4.6e14 kilojoule tenths; with this bound a window of
    /// ``PersonTrainingLog/maximumWorkouts`` workouts adds up to at most 5e17, far from
    /// Int64's limit.
    public static let maximumFigure: Int64 = 1_000_000_000_000_000

    /// Whether the times and figures are ones a finished workout can have: start and end within
    /// the contract's `ts` range, the duration their difference, every figure 0 ...
    /// ``maximumFigure``. Records from the repartition topic and the person changelog are
    /// checked against it before any arithmetic.
    public var isWithinBounds: Bool {
        startTimestamp >= 0 && endTimestamp >= startTimestamp && endTimestamp <= 1 << 53
            && durationMs == endTimestamp - startTimestamp
            && [pointsTenths, caloriesKcal, kilojoulesTenths].allSatisfy { (0...Self.maximumFigure).contains($0) }
    }

    /// The UTC day of the end, counted from the epoch.
    var endDay: Int64 { PersonTrainingLog.day(of: endTimestamp) }

    func isSameWorkout(as other: CountedWorkout) -> Bool {
        session == other.session && startTimestamp == other.startTimestamp
    }
}

/// What the class stage knows of one finished workout with a class: its identity, its day's
/// figures and its plan's time in target, enough for the class's summary and leaderboard.
public struct ClassWorkout: Sendable, Equatable {
    public var session: String
    /// With `session`, the workout's identity (as for person summaries).
    public var startTimestamp: Int64
    public var endTimestamp: Int64
    public var durationMs: Int64
    public var person: String?
    /// Nil where the workout has no such figure (shown as null on the leaderboard).
    public var pointsTenths: Int64?
    public var caloriesKcal: Int64?
    public var kilojoulesTenths: Int64?
    /// Milliseconds per heart-rate intensity band; all zero without heart-rate effort.
    public var intensityMs: [Int64]
    /// Per quantity the plan targets: milliseconds in target and milliseconds counted against a
    /// target; nil without a plan.
    public var compliance: PerQuantity<ComplianceCounts?>?

    /// A quantity's time in target over time counted against a target, summed over the steps.
    public struct ComplianceCounts: Sendable, Equatable {
        public var inMs: Int64
        public var countedMs: Int64

        public init(inMs: Int64, countedMs: Int64) {
            self.inMs = inMs
            self.countedMs = countedMs
        }
    }

    public init(
        session: String, startTimestamp: Int64, endTimestamp: Int64, durationMs: Int64, person: String?,
        pointsTenths: Int64?, caloriesKcal: Int64?, kilojoulesTenths: Int64?, intensityMs: [Int64],
        compliance: PerQuantity<ComplianceCounts?>?
    ) {
        self.session = session
        self.startTimestamp = startTimestamp
        self.endTimestamp = endTimestamp
        self.durationMs = durationMs
        self.person = person
        self.pointsTenths = pointsTenths
        self.caloriesKcal = caloriesKcal
        self.kilojoulesTenths = kilojoulesTenths
        self.intensityMs = intensityMs
        self.compliance = compliance
    }

    /// The workout of a finished session.
    public init(_ summary: WorkoutSummary) {
        let heartRate = summary.effort.heartRate
        var compliance: PerQuantity<ComplianceCounts?>?
        if let plan = summary.plan {
            var counts = PerQuantity<ComplianceCounts?>(repeating: nil)
            for quantity in plan.targetedQuantities {
                let fraction = plan.complianceFraction(quantity)
                counts[quantity] = ComplianceCounts(inMs: fraction?.inMs ?? 0, countedMs: fraction?.countedMs ?? 0)
            }
            compliance = counts
        }
        self.init(
            session: summary.session, startTimestamp: summary.startTimestamp, endTimestamp: summary.endTimestamp,
            durationMs: summary.durationMs, person: summary.person, pointsTenths: heartRate?.pointsTenths,
            caloriesKcal: heartRate?.caloriesKcal, kilojoulesTenths: summary.effort.kilojoulesTenths,
            intensityMs: heartRate?.intensityMs ?? Array(repeating: 0, count: 6), compliance: compliance)
    }

    /// Whether the times and figures are ones a finished workout can have (times in the
    /// contract's `ts` range, figures 0 ... 10^15, each duration and count 0 ... 2^53, in
    /// target no more than counted): records of the class stage's repartition topic and
    /// changelog are checked against it before any arithmetic, and with at most
    /// ``ClassDayLog/maximumWorkouts`` of them no sum leaves 64 bits.
    public var isWithinBounds: Bool {
        let limit: Int64 = 1 << 53
        let figures = [pointsTenths, caloriesKcal, kilojoulesTenths].compactMap { $0 }
        let counts = Quantity.allCases.compactMap { compliance?[$0] }
        return startTimestamp >= 0 && endTimestamp >= startTimestamp && endTimestamp <= limit
            && durationMs == endTimestamp - startTimestamp
            && figures.allSatisfy { (0...CountedWorkout.maximumFigure).contains($0) }
            && intensityMs.count == 6 && intensityMs.allSatisfy { (0...limit).contains($0) }
            && counts.allSatisfy { $0.inMs >= 0 && $0.inMs <= $0.countedMs && $0.countedMs <= limit }
    }

    func isSameWorkout(as other: ClassWorkout) -> Bool {
        session == other.session && startTimestamp == other.startTimestamp
    }
}

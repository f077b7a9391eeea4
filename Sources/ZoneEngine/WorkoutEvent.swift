/// One decoded `workout-events` record, already validated by the decoder:
/// values are finite, in range and converted to the quantity's canonical unit.
public struct WorkoutEvent: Sendable, Equatable {
    public var session: String
    /// Milliseconds since the Unix epoch.
    public var timestamp: Int64
    public var body: Body

    public init(session: String, timestamp: Int64, body: Body) {
        self.session = session
        self.timestamp = timestamp
        self.body = body
    }

    /// The latest time the event carries: a series' last value's time, else `timestamp`.
    public var latestTimestamp: Int64 {
        guard case .sampleSeries(_, let intervalMs, let values, _) = body else { return timestamp }
        return timestamp + intervalMs * Int64(values.count - 1)
    }

    public enum Body: Sendable, Equatable {
        case sample(Quantity, value: Double, person: String?)
        case sampleSeries(Quantity, intervalMs: Int64, values: [Double], person: String?)
        /// Boxed: a start request holds both quantities' inline zone boundaries (hundreds of
        /// bytes), and every sample's event would otherwise be as large and copied as such
        /// (memmove was a tenth of a worker's time in perf).
        indirect case sessionStart(SessionStartRequest)
        case sessionEnd
        case pause
        case resume
        case activityStart(String)
        case activityEnd
    }
}

/// The content of a `session_start` event.
public struct SessionStartRequest: Sendable, Equatable {
    public var person: String?
    /// `nil` when absent; the session's activity is then `other`.
    public var activity: String?
    /// The class or studio slot (`class`), 1 to 64 bytes.
    public var sessionClass: String?
    /// Valid app zones per quantity.
    public var zones: PerQuantity<ZoneConfiguration?>
    /// Quantities with a non-null entry in `zones`, valid or not.
    public var zonesGiven: PerQuantity<Bool>
    /// Set when `zones` had any defect: the event still applies, and is also
    /// dead-lettered as `invalid_zones` with this detail.
    public var zonesDefect: String?
    /// The session's own valid plan, anchored at the event's time (used only when the event
    /// starts the session).
    public var plan: WorkoutPlan?
    /// Set when `plan` had any defect: the event still applies, without that plan, and is also
    /// dead-lettered as `invalid_plan` with this detail (unless its zones are dead-lettered).
    public var planDefect: String?

    public init(
        person: String? = nil, activity: String? = nil, sessionClass: String? = nil,
        zones: PerQuantity<ZoneConfiguration?> = PerQuantity(repeating: nil),
        zonesGiven: PerQuantity<Bool>? = nil, zonesDefect: String? = nil, plan: WorkoutPlan? = nil,
        planDefect: String? = nil
    ) {
        self.plan = plan
        self.planDefect = planDefect
        self.person = person
        self.activity = activity
        self.sessionClass = sessionClass
        self.zones = zones
        self.zonesGiven =
            zonesGiven ?? PerQuantity(heartRate: zones.heartRate != nil, cyclingPower: zones.cyclingPower != nil)
        self.zonesDefect = zonesDefect
    }
}

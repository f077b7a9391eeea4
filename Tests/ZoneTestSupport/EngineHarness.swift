public import ZoneEngine

/// Feeds events to a ``SessionStore`` with terse helpers and records every output.
/// Times are seconds after `origin` unless given in milliseconds.
public struct EngineHarness {
    public var store: SessionStore
    public var outputs = EngineOutputs()
    public var profiles: [String: PersonProfile] = [:]
    public var wallMs: Int64 = 0
    public let session: String
    public static let origin: Int64 = 1_717_200_000_000

    public init(session: String = "s1", settings: EngineSettings = EngineSettings()) {
        self.session = session
        self.store = SessionStore(settings: settings)
    }

    public static func ms(_ seconds: Double) -> Int64 { origin + Int64((seconds * 1000).rounded()) }

    public mutating func send(_ body: WorkoutEvent.Body, at seconds: Double, session: String? = nil) {
        send(body, atMs: Self.ms(seconds), session: session)
    }

    /// Sends at an absolute time in milliseconds.
    public mutating func send(_ body: WorkoutEvent.Body, atMs timestamp: Int64, session: String? = nil) {
        let event = WorkoutEvent(session: session ?? self.session, timestamp: timestamp, body: body)
        var produced = EngineOutputs()
        store.handle(event, wallMs: wallMs, profiles: profiles, outputs: &produced)
        outputs.append(contentsOf: produced)
    }

    /// Finishes the sessions idle at `wallMs`, recording their outputs.
    public mutating func expire(wallMs: Int64) {
        var produced = EngineOutputs()
        store.expire(wallMs: wallMs, outputs: &produced)
        outputs.append(contentsOf: produced)
    }

    public mutating func start(
        at seconds: Double = 0, person: String? = nil, activity: String? = nil,
        zones: PerQuantity<ZoneConfiguration?> = PerQuantity(repeating: nil)
    ) {
        send(.sessionStart(SessionStartRequest(person: person, activity: activity, zones: zones)), at: seconds)
    }

    public mutating func hr(_ value: Double, at seconds: Double) {
        send(.sample(.heartRate, value: value, person: nil), at: seconds)
    }

    public mutating func power(_ value: Double, at seconds: Double) {
        send(.sample(.cyclingPower, value: value, person: nil), at: seconds)
    }

    /// Ends the session and returns its summary.
    @discardableResult
    public mutating func end(at seconds: Double) -> WorkoutSummary? {
        send(.sessionEnd, at: seconds)
        return outputs.finished.last
    }

    public var rejectionReasons: [DeadLetterReason] { outputs.rejections.map(\.reason) }

    public var live: WorkoutSession? { store.session(session) }
}

extension WorkoutSummary {
    /// Zone durations of a quantity as plain integers, for assertions.
    public func durations(_ quantity: Quantity) -> [Int64]? {
        zoneGroups.first { $0.configuration.quantity == quantity }?.zoneDurations
    }

    public func untracked(_ quantity: Quantity) -> Int64? {
        untrackedMs.first { $0.quantity == quantity }?.milliseconds
    }

    /// Zone durations plus untracked time: the session's active span for a quantity with zones.
    public func accountedMs(_ quantity: Quantity) -> Int64? {
        guard let durations = durations(quantity), let untracked = untracked(quantity) else { return nil }
        return durations.reduce(0, +) + untracked
    }
}

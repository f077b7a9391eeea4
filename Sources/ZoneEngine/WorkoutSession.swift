/// One live workout session: the per-session accumulator of docs/reference/contract.md.
///
/// A session is owned by exactly one worker, so it has no lock. It is a value type;
/// store it where it can be mutated in place (a dictionary's subscript does).
/// Applying a sample allocates nothing and hashes no strings.
public struct WorkoutSession: Sendable {
    /// The session's id, person and class, in the one object its live outputs share.
    public internal(set) var identity: SessionIdentity
    public var id: String { identity.session }
    public internal(set) var person: String? {
        get { identity.person }
        set { identity = SessionIdentity(session: id, person: newValue, sessionClass: sessionClass) }
    }
    /// The session's activity; `other` counts as unset.
    public internal(set) var activity: String
    /// The class or studio slot the workout belongs to, from `session_start`.
    public internal(set) var sessionClass: String? {
        get { identity.sessionClass }
        set { identity = SessionIdentity(session: id, person: person, sessionClass: newValue) }
    }
    public let startTimestamp: Int64
    /// The plan the session follows, chosen when it started; nil without one.
    public internal(set) var plan: WorkoutPlan?
    /// The latest time the session has applied: start, control events, accepted samples.
    public var latestTimestamp: Int64 {
        get { counters.latestTimestamp }
        set { counters.latestTimestamp = newValue }
    }
    /// Wall-clock milliseconds of the last applied event, for the idle timeout.
    public internal(set) var lastAppliedWallMs: Int64

    var tracks: SessionTracks
    /// Pause intervals in time order; only the last may be open (`end == .max`).
    var pauses: [PauseInterval] = []
    var pausedMs: Int64 = 0
    /// Activities in time order; only the last may be open (`end == .max`).
    var activities: [ActivityRecord] = []
    var counters: SessionCounters
    /// Reorder window (`reorder_window_ms`): samples held back, in time order, until they are
    /// that much older than the newest sample seen. Empty when the window is 0.
    var pendingSamples: [PendingSample] = []
    var newestSampleTimestamp: Int64 = .min

    /// Starts a session at `timestamp`, resolving zones per quantity from `appZones` and `profile`.
    public init(
        id: String, startTimestamp: Int64, person: String?, activity: String?, sessionClass: String? = nil,
        appZones: PerQuantity<ZoneConfiguration?> = PerQuantity(repeating: nil),
        profile: PersonProfile?, wallMs: Int64 = 0, plan: WorkoutPlan? = nil
    ) {
        self.plan = plan
        self.identity = SessionIdentity(session: id, person: person, sessionClass: sessionClass)
        self.activity = activity ?? Self.defaultActivity
        self.startTimestamp = startTimestamp
        self.counters = SessionCounters(latestTimestamp: startTimestamp)
        self.lastAppliedWallMs = wallMs
        var heartRate = QuantityTrack(
            .heartRate, configuration: ZoneResolver.resolve(.heartRate, appZones: appZones.heartRate, profile: profile))
        heartRate.heartRateEffort = HeartRateEffortParameters.make(from: profile).map(HeartRateEffort.init)
        heartRate.target = plan.flatMap { TargetTrack(plan: $0, quantity: .heartRate) }
        let power = QuantityTrack(
            .cyclingPower,
            configuration: ZoneResolver.resolve(.cyclingPower, appZones: appZones.cyclingPower, profile: profile))
        // The power target starts with the power track's first sample (``startPowerTarget``): a
        // member without a power meter never pays for the power track.
        self.tracks = SessionTracks(heartRate: heartRate, cyclingPower: power)
    }

    /// The zone change that the accepted sample of `quantity` at `timestamp` published (its
    /// outcome's changes held ``SampleChanges/zone``), read from the track in place.
    @inline(__always)
    public func publishedZoneChange(_ quantity: Quantity, at timestamp: Int64) -> ZoneChange? {
        tracks.publishedZoneChange(quantity, at: timestamp)
    }

    /// The target change that the accepted sample at `timestamp` with `value` published (its
    /// outcome's changes held ``SampleChanges/target``).
    @inline(__always)
    func publishedTargetChange(_ quantity: Quantity, at timestamp: Int64, value: Double) -> TargetChange? {
        guard let plan else { return nil }
        return tracks.publishedTargetChange(quantity, of: plan, at: timestamp, value: value)
    }

    /// The activity a session has when none is given; it counts as unset.
    public static let defaultActivity = "other"

    /// The zone configuration in use for `quantity`, if it has zones.
    public func configuration(for quantity: Quantity) -> ZoneConfiguration? { tracks.configuration(for: quantity) }

    /// Whether the session is paused now.
    public var isPaused: Bool { pauses.last?.isOpen ?? false }

    /// Applies one sample (value in the canonical unit, already range-checked).
    ///
    /// This is the hot path: no allocation, no lock, no string hashing. It switches once on
    /// the quantity and works on that track in place. Inlined into the store: called there
    /// with the store's settings while its sessions are changed, the settings would be copied
    /// for every sample (perf; they are 56 bytes, their normalization models on the heap).
    @inline(__always)
    public mutating func applySample(
        _ quantity: Quantity, at timestamp: Int64, value: Double, settings: EngineSettings
    ) -> SampleOutcome {
        switch quantity {
        case .heartRate:
            return Self.applySample(
                to: &tracks.heartRate, counters: &counters, activities: &activities, pauses: pauses,
                start: startTimestamp, at: timestamp, value: value, settings: settings)
        case .cyclingPower:
            // Through the box directly: an accessor's frame would go on the heap (SessionTracks).
            let power = tracks.powerStorage()
            if power.track.target == nil, power.track.acceptedSamples == 0, let plan {
                Self.startPowerTarget(&power.track, plan: plan)
            }
            let outcome = Self.applySample(
                to: &power.track, counters: &counters, activities: &activities, pauses: pauses,
                start: startTimestamp, at: timestamp, value: value, settings: settings)
            if outcome.isAccepted { return outcome }
            tracks.dropPowerIfUnused()
            return outcome
        }
    }

    /// The power track's target, made with its first sample when the plan targets power: until
    /// then it could hold nothing (no power sample, no time counted), so the track stays unused
    /// and unboxed for members without a power meter.
    @inline(never)
    private static func startPowerTarget(_ track: inout QuantityTrack, plan: WorkoutPlan) {
        track.target = TargetTrack.starting(.cyclingPower, of: plan)
    }

    @inline(__always)
    private static func applySample(
        to track: inout QuantityTrack, counters: inout SessionCounters, activities: inout [ActivityRecord],
        pauses: [PauseInterval], start: Int64, at timestamp: Int64, value: Double, settings: EngineSettings
    ) -> SampleOutcome {
        if track.acceptedSamples > 0 ? timestamp <= track.lastTimestamp : timestamp < start {
            if track.acceptedSamples > 0 && timestamp == track.lastTimestamp && value == track.lastValue {
                counters.duplicateSamples += 1
                return .duplicate
            }
            counters.lateSamples += 1
            return .late
        }
        if !pauses.isEmpty && isInPause(timestamp, pauses: pauses) {
            counters.pausedSamples += 1
            return .paused
        }
        if track.coverageOpen {
            creditOpenCoverage(of: &track, activities: &activities, pauses: pauses, upTo: timestamp, settings: settings)
        }
        if timestamp > counters.latestTimestamp { counters.latestTimestamp = timestamp }
        let outcome = track.accept(timestamp: timestamp, value: value, settings: settings)
        // Observed in the same access to the track; a session without a plan pays a nil check.
        guard track.target != nil, track.target?.keepsState(value, at: timestamp) == false,
            track.observeTarget(value: value, at: timestamp, dwellMs: settings.targetMinDwellMs),
            case .accepted(let changes) = outcome
        else { return outcome }
        return .accepted(changes.union(.target))
    }

    /// Whether a sample at `timestamp` falls in a closed pause or at or after an open one's start.
    static func isInPause(_ timestamp: Int64, pauses: [PauseInterval]) -> Bool {
        for pause in pauses.reversed() where pause.start <= timestamp {
            return timestamp < pause.end
        }
        return false
    }
}

/// The session-wide counters the per-sample path updates.
struct SessionCounters: Sendable {
    var latestTimestamp: Int64
    var lateSamples = 0
    var duplicateSamples = 0
    var pausedSamples = 0
}

/// A pause from `start` until `end` (exclusive); `end == .max` while open.
struct PauseInterval: Sendable, Equatable {
    var start: Int64
    var end: Int64 = .max
    var isOpen: Bool { end == .max }
}

/// One activity of a multi-sport session with its own zone durations.
struct ActivityRecord: Sendable {
    var name: String
    var start: Int64
    var end: Int64 = .max
    var durations = PerQuantity(repeating: ZoneDurations())
    var isOpen: Bool { end == .max }
}

extension QuantityTrack {
    /// Records an accepted sample and reports whether it publishes a zone change, then read
    /// with ``publishedZoneChange(at:)``.
    @inline(__always)
    mutating func accept(timestamp: Int64, value: Double, settings: EngineSettings) -> SampleOutcome {
        acceptedSamples += 1
        lastTimestamp = timestamp
        lastValue = value
        coverageOpen = true
        if value < minimum { minimum = value }
        if value > maximum { maximum = value }
        sum += value
        // Read through the optional in place: binding it would copy 80 bytes per sample.
        guard let zone = configuration?.zoneIndex(of: value) else { return .accepted([]) }
        lastZone = zone
        let dwell = settings.zoneChangeMinDwellMs
        if dwell > 0 {
            if zone != runZone {
                runZone = zone
                runStart = timestamp
            }
            guard zone != publishedZone, timestamp - runStart >= dwell else { return .accepted([]) }
        } else if zone == publishedZone {
            return .accepted([])
        }
        previousPublishedZone = publishedZone
        publishedZone = zone
        return .accepted(.zone)
    }

    /// The zone change the latest accepted sample, at `timestamp`, published: its zone, the
    /// one published before, and the durations credited up to it.
    @inline(__always)
    func publishedZoneChange(at timestamp: Int64) -> ZoneChange {
        ZoneChange(
            quantity: quantity, timestamp: timestamp,
            previousZone: previousPublishedZone < 0 ? nil : previousPublishedZone, currentZone: publishedZone,
            durations: durations)
    }
}

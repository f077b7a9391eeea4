/// What a live session looks like right now: the read-only view the operator's endpoint and the
/// gym board show. A plain value copied out of the session, so readers never touch the worker's
/// state.
public struct LiveSessionState: Sendable, Equatable {
    /// One quantity's live zone group.
    public struct ZoneGroup: Sendable, Equatable {
        // Stored widest first, so that no field pads the next: a group is kept per quantity
        // in every live view.
        /// Durations credited so far, through the last accepted sample (its own interval is
        /// credited when the next one arrives or the session ends, as in docs/reference/contract.md).
        public let durations: ZoneDurations
        public let samples: Int
        /// The last accepted value in the canonical unit, nil before the first sample.
        public let currentValue: Double?
        /// The zones in use; nil when the quantity has none (values are still shown).
        public let configuration: ZoneConfiguration?
        public let quantity: Quantity
        /// The zone of the last published zone change (0-based), nil before the first; it is
        /// what `zone-changes` consumers see, damping included.
        public var currentZone: Int? { currentZoneByte < 0 ? nil : Int(currentZoneByte) }
        private let currentZoneByte: Int8

        init(
            quantity: Quantity, configuration: ZoneConfiguration?, currentZone: Int?, currentValue: Double?,
            durations: ZoneDurations, samples: Int
        ) {
            (self.quantity, self.configuration, self.currentValue) = (quantity, configuration, currentValue)
            (self.durations, self.samples) = (durations, samples)
            // A zone index is below nine (at most eight boundaries).
            currentZoneByte = currentZone.map { Int8(truncatingIfNeeded: $0) } ?? -1
        }
    }

    public let session: String
    public let person: String?
    /// The person's display name (profile `name`), for boards; nil when the profile has none.
    public let name: String?
    /// The class or studio slot from `session_start`.
    public let sessionClass: String?
    public let activity: String
    public let startTimestamp: Int64
    public let latestTimestamp: Int64
    /// Quantities with at least one accepted sample or with zones, heart rate first.
    public let zoneGroups: [ZoneGroup]
    /// The person's maximum heart rate (profile `max_hr`, else from age as the system zones
    /// compute it), nil when unknown; boards show the current heart rate as a share of it.
    public let maximumHeartRate: Double?
    // 32 bits each, what a share in whole percent needs, in what would be the padding after
    // the maximum: a view is kept per live session.
    let restingHeartRateValue: Float
    let functionalThresholdPowerValue: Float
    /// Where the session stands in its plan; nil without one.
    public let target: LiveTarget?
    /// Points, calories and work so far, credited through each quantity's last accepted
    /// sample, as `durations` are; worked out when read.
    public var effort: WorkoutEffort { effortSums.effort }
    let effortSums: EffortSums
    // Last, a byte in what would be padding.
    public let isPaused: Bool

    /// The person's resting heart rate when the session's heart-rate zones are the system's
    /// Karvonen zones (heart-rate reserve, contract section 1), else nil: boards then show the
    /// current rate as a share of the reserve, the quantity those zones are computed from.
    public var restingHeartRate: Double? { restingHeartRateValue.isNaN ? nil : Double(restingHeartRateValue) }
    /// The person's FTP when the session's power zones are the system's (from it), else nil.
    public var functionalThresholdPower: Double? {
        functionalThresholdPowerValue.isNaN ? nil : Double(functionalThresholdPowerValue)
    }

    /// The current heart rate in percent of ``maximumHeartRate``, rounded; nil when either is
    /// unknown.
    public var percentOfMaximumHeartRate: Int? {
        guard let maximum = maximumHeartRate, maximum > 0, let current = currentValue(.heartRate) else { return nil }
        return Self.percent(current, of: maximum)
    }

    /// The current heart rate in percent of the heart-rate reserve (Karvonen: (rate - rest) /
    /// (max - rest)), rounded; nil unless the zones are Karvonen zones. A rate at the third
    /// zone's lower boundary reads 70%, as the zone's definition says.
    public var percentOfHeartRateReserve: Int? {
        guard let rest = restingHeartRate, let maximum = maximumHeartRate, maximum > rest,
            let current = currentValue(.heartRate)
        else { return nil }
        return Self.percent(current - rest, of: maximum - rest)
    }

    /// The current power in percent of FTP, rounded; nil unless the power zones come from it.
    public var percentOfFunctionalThresholdPower: Int? {
        guard let ftp = functionalThresholdPower, ftp > 0, let current = currentValue(.cyclingPower) else {
            return nil
        }
        return Self.percent(current, of: ftp)
    }

    private func currentValue(_ quantity: Quantity) -> Double? {
        zoneGroups.first(where: { $0.quantity == quantity })?.currentValue
    }

    private static func percent(_ value: Double, of whole: Double) -> Int? {
        let percent = (100 * value / whole).rounded()
        return percent.isFinite && abs(percent) < 1e9 ? Int(percent) : nil
    }
}

/// A live session's place in its plan: the step its latest time falls in, and per quantity the
/// last published target state (what `target-changes` consumers saw last).
public struct LiveTarget: Sendable, Equatable {
    public let plan: WorkoutPlan
    /// The step (0-based) holding the session's latest time; nil outside the plan's steps.
    public let step: Int?
    public let states: PerQuantity<TargetChange.State?>

    /// The status of `quantity` in the current step, nil when none was published in it.
    public func status(of quantity: Quantity) -> TargetStatus? {
        guard let step, let state = states[quantity], state.step == step else { return nil }
        return state.status
    }
}

extension WorkoutSession {
    /// The session as it stands, for live displays (not on the per-sample path); `profile` is
    /// the person's profile as it is now, for the maximum heart rate.
    public func liveState(profile: PersonProfile?) -> LiveSessionState {
        var groups: [LiveSessionState.ZoneGroup] = []
        for quantity in Quantity.allCases {
            let track = tracks[quantity]
            guard track.hasSamples || track.configuration != nil else { continue }
            groups.append(
                LiveSessionState.ZoneGroup(
                    quantity: quantity, configuration: track.configuration,
                    currentZone: track.publishedZone >= 0 ? track.publishedZone : nil,
                    currentValue: track.hasSamples ? track.lastValue : nil,
                    durations: track.durations, samples: track.acceptedSamples))
        }
        return LiveSessionState(
            session: id, person: person, name: profile?.name, sessionClass: sessionClass, activity: activity,
            startTimestamp: startTimestamp, latestTimestamp: latestTimestamp, zoneGroups: groups,
            maximumHeartRate: SystemZones.maximumHeartRate(for: profile),
            restingHeartRateValue: tracks.heartRate.configuration?.source == .system
                ? SystemZones.reserveRestingHeartRate(for: profile).map(Float.init) ?? .nan : .nan,
            functionalThresholdPowerValue: tracks.cyclingPower.configuration?.source == .system
                ? profile?.functionalThresholdPower.flatMap { $0 > 0 ? Float($0) : nil } ?? .nan : .nan,

            target: plan.map { plan in
                LiveTarget(
                    plan: plan, step: plan.step(at: latestTimestamp),
                    states: PerQuantity(
                        heartRate: tracks.heartRate.target?.publishedState,
                        cyclingPower: tracks.cyclingPower.target?.publishedState))
            }, effortSums: effortSums, isPaused: isPaused)
    }
}

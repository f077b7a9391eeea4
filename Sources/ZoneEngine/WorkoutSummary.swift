/// A finished workout, shaped as the contract's `workout_finished` event.
public struct WorkoutSummary: Sendable, Equatable {
    public enum EndReason: String, Sendable {
        case ended
        case idleTimeout = "idle_timeout"
    }

    /// Durations per zone under one configuration.
    public struct ZoneGroup: Sendable, Equatable {
        public let configuration: ZoneConfiguration
        public let durations: ZoneDurations
        /// The durations of the configuration's zones, in order.
        public var zoneDurations: [Int64] { durations.values(count: configuration.zoneCount) }
    }

    public struct Activity: Sendable, Equatable {
        public let name: String
        public let startTimestamp: Int64
        public let endTimestamp: Int64
        public let zoneGroups: [ZoneGroup]
    }

    public struct Statistics: Sendable, Equatable {
        public let quantity: Quantity
        public let minimum: Double
        public let maximum: Double
        public let average: Double
        public let samples: Int
    }

    public let session: String
    public let person: String?
    /// The class or studio slot, nil when the session has none.
    public let sessionClass: String?
    public let activity: String
    public let startTimestamp: Int64
    public let endTimestamp: Int64
    public let endReason: EndReason
    public let pausedMs: Int64
    /// In quantity order (heart rate, then power), for quantities with samples and zones.
    public let zoneGroups: [ZoneGroup]
    public let activities: [Activity]
    /// In quantity order, for quantities with at least one accepted sample.
    public let statistics: [Statistics]
    public let lateSamples: Int
    public let duplicateSamples: Int
    public let pausedSamples: Int
    /// Untracked milliseconds per quantity with samples, in quantity order.
    public let untrackedMs: [(quantity: Quantity, milliseconds: Int64)]
    /// Points, calories and work (`effort`; empty when nothing qualifies).
    public let effort: WorkoutEffort
    /// Nil when no normalization model is configured for any quantity; otherwise the
    /// quantities of `zoneGroups` that have one (empty when none of them has one), so the
    /// event carries `normalized_zone_groups` on every workout whenever normalization is on.
    public let normalizedZoneGroups: [ZoneGroup]?
    /// The session's plan with its time in target; nil without a plan.
    public let plan: PlanSummary?

    /// `end - start`, pauses included.
    public var durationMs: Int64 { endTimestamp - startTimestamp }

    public static func == (lhs: WorkoutSummary, rhs: WorkoutSummary) -> Bool {
        lhs.session == rhs.session && lhs.person == rhs.person && lhs.sessionClass == rhs.sessionClass
            && lhs.activity == rhs.activity && lhs.effort == rhs.effort
            && lhs.startTimestamp == rhs.startTimestamp && lhs.endTimestamp == rhs.endTimestamp
            && lhs.endReason == rhs.endReason && lhs.pausedMs == rhs.pausedMs && lhs.zoneGroups == rhs.zoneGroups
            && lhs.activities == rhs.activities && lhs.statistics == rhs.statistics
            && lhs.lateSamples == rhs.lateSamples && lhs.duplicateSamples == rhs.duplicateSamples
            && lhs.pausedSamples == rhs.pausedSamples
            && lhs.untrackedMs.elementsEqual(rhs.untrackedMs, by: { $0 == $1 })
            && lhs.normalizedZoneGroups == rhs.normalizedZoneGroups && lhs.plan == rhs.plan
    }
}

extension WorkoutSession {
    /// The quantities with at least one accepted sample, in quantity order.
    var quantitiesWithSamples: [Quantity] { Quantity.allCases.filter { tracks[$0].hasSamples } }

    /// The quantities that appear in `zone_groups`: accepted samples and zones.
    var zonedQuantities: [Quantity] {
        quantitiesWithSamples.filter { tracks[$0].configuration != nil }
    }

    func summary(endTimestamp: Int64, reason: WorkoutSummary.EndReason, settings: EngineSettings)
        -> WorkoutSummary
    {
        let zoned = zonedQuantities
        let activeMs = endTimestamp - startTimestamp - pausedMs
        return WorkoutSummary(
            session: id, person: person, sessionClass: sessionClass, activity: activity,
            startTimestamp: startTimestamp,
            endTimestamp: endTimestamp, endReason: reason, pausedMs: pausedMs,
            zoneGroups: zoned.map { zoneGroup($0, durations: tracks[$0].durations) },
            activities: activities.map { record in
                WorkoutSummary.Activity(
                    name: record.name, startTimestamp: record.start, endTimestamp: record.end,
                    zoneGroups: zoned.map { zoneGroup($0, durations: record.durations[$0]) })
            },
            statistics: quantitiesWithSamples.map { quantity in
                let track = tracks[quantity]
                return WorkoutSummary.Statistics(
                    quantity: quantity, minimum: track.minimum, maximum: track.maximum,
                    average: track.sum / Double(track.acceptedSamples), samples: track.acceptedSamples)
            },
            lateSamples: counters.lateSamples, duplicateSamples: counters.duplicateSamples,
            pausedSamples: counters.pausedSamples,
            untrackedMs: quantitiesWithSamples.map { ($0, activeMs - tracks[$0].coveredMs) },
            effort: effort,
            normalizedZoneGroups: settings.normalizesAnyQuantity
                ? zoned.compactMap { quantity in
                    settings.normalizationModel(for: quantity).map {
                        WorkoutSummary.ZoneGroup(configuration: $0, durations: tracks[quantity].normalizedDurations)
                    }
                } : nil,
            plan: plan.map {
                PlanSummary(plan: $0, heartRate: tracks.heartRate, cyclingPower: tracks.cyclingPower)
            })
    }

    /// The effort so far, counting only credited intervals (a live view credits the open one
    /// on a copy first).
    public var effort: WorkoutEffort { effortSums.effort }

    /// What ``effort`` is worked out from.
    var effortSums: EffortSums {
        let heartRate = tracks.heartRate
        let power = tracks.cyclingPower
        return EffortSums(
            heartRate: heartRate.hasSamples ? heartRate.heartRateEffort?.credited : nil,
            wattMilliseconds: power.hasSamples && !power.valueMs.isNaN ? power.valueMs : nil)
    }

    private func zoneGroup(_ quantity: Quantity, durations: ZoneDurations) -> WorkoutSummary.ZoneGroup {
        // Only called for zoned quantities, whose configuration is set.
        WorkoutSummary.ZoneGroup(configuration: tracks[quantity].configuration!, durations: durations)
    }

    /// The zone of the last accepted sample of `quantity`, 0-based.
    public func currentZone(of quantity: Quantity) -> Int? {
        let zone = tracks[quantity].lastZone
        return zone < 0 ? nil : zone
    }
}

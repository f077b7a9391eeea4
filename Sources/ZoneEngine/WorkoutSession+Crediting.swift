extension WorkoutSession {
    /// Credits the open coverage of `quantity`'s last accepted sample up to `upTo`.
    mutating func creditOpenCoverage(_ quantity: Quantity, upTo: Int64, settings: EngineSettings) {
        switch quantity {
        case .heartRate:
            Self.creditOpenCoverage(
                of: &tracks.heartRate, activities: &activities, pauses: pauses, upTo: upTo, settings: settings)
        case .cyclingPower:
            Self.creditOpenCoverage(
                of: &tracks.cyclingPower, activities: &activities, pauses: pauses, upTo: upTo, settings: settings)
        }
    }

    /// Credits the open coverage of a track's last accepted sample, which ends at the earliest
    /// of `upTo` (the next accepted sample or the session's end), the sample's time + max gap,
    /// and the start of the first pause after it. The interval goes to the sample's zone, the
    /// normalized zone, and each activity it overlaps (split at activity boundaries).
    static func creditOpenCoverage(
        of track: inout QuantityTrack, activities: inout [ActivityRecord], pauses: [PauseInterval], upTo: Int64,
        settings: EngineSettings
    ) {
        let start = track.lastTimestamp
        var end = min(upTo, start &+ settings.maxGapMs)
        if !pauses.isEmpty { end = min(end, firstPauseStart(atOrAfter: start, pauses: pauses)) }
        track.coverageOpen = false
        guard end > start else { return }
        let length = end - start
        track.coveredMs += length
        if track.quantity == .cyclingPower {
            track.valueMs += track.lastValue * Double(length)
        } else {
            track.heartRateEffort?.credit(value: track.lastValue, length)
        }
        if let normalization = settings.normalizationModel(for: track.quantity) {
            track.creditNormalized(zone: normalization.zoneIndex(of: track.lastValue), length)
        }
        let zone = track.lastZone
        if track.target?.creditsNothing(to: end) == false {
            track.target?.credit(
                value: track.lastValue, zone: zone, zoneCount: track.configuration?.zoneCount ?? 0, from: start,
                to: end, coveredBefore: track.coveredMs &- length)
        }
        guard zone >= 0 else { return }
        track.durations[zone] += length
        if !activities.isEmpty {
            creditActivities(&activities, quantity: track.quantity, zone: zone, from: start, to: end)
        }
    }

    static func firstPauseStart(atOrAfter start: Int64, pauses: [PauseInterval]) -> Int64 {
        var first = Int64.max
        for pause in pauses.reversed() {
            guard pause.start >= start else { break }
            first = pause.start
        }
        return first
    }

    static func creditActivities(
        _ activities: inout [ActivityRecord], quantity: Quantity, zone: Int, from start: Int64, to end: Int64
    ) {
        var index = activities.count - 1
        while index >= 0 {
            let activityStart = activities[index].start
            let activityEnd = activities[index].end
            if activityEnd <= start { break }
            let overlapStart = max(start, activityStart)
            let overlapEnd = min(end, activityEnd)
            if overlapEnd > overlapStart {
                activities[index].durations[quantity][zone] += overlapEnd - overlapStart
            }
            index -= 1
        }
    }
}

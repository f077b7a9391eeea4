extension WorkoutSession {
    /// Credits the open coverage of `quantity`'s last accepted sample, which ends at the
    /// earliest of `upTo` (the next accepted sample or the session's end), the sample's
    /// time + max gap, and the start of the first pause after it.
    mutating func creditOpenCoverage(_ quantity: Quantity, upTo: Int64, settings: EngineSettings) {
        let start = tracks[quantity].lastTimestamp
        var end = min(upTo, start &+ settings.maxGapMs)
        for pause in pauses.reversed() {
            guard pause.start >= start else { break }
            end = min(end, pause.start)
        }
        tracks[quantity].coverageOpen = false
        guard end > start else { return }
        credit(quantity, from: start, to: end, value: tracks[quantity].lastValue, settings: settings)
    }

    /// Credits [from, to) of a value to its zone, to the normalized zone, and to each
    /// activity the interval overlaps (split at activity boundaries).
    private mutating func credit(
        _ quantity: Quantity, from start: Int64, to end: Int64, value: Double, settings: EngineSettings
    ) {
        let length = end - start
        tracks[quantity].coveredMs += length
        if let normalization = settings.normalization[quantity] {
            tracks[quantity].normalizedDurations[normalization.zoneIndex(of: value)] += length
        }
        let zone = tracks[quantity].lastZone
        guard zone >= 0 else { return }
        tracks[quantity].durations[zone] += length
        var index = activities.count - 1
        while index >= 0 {
            let activity = activities[index]
            if activity.end <= start { break }
            let overlapStart = max(start, activity.start)
            let overlapEnd = min(end, activity.end)
            if overlapEnd > overlapStart {
                activities[index].durations[quantity][zone] += overlapEnd - overlapStart
            }
            index -= 1
        }
    }
}

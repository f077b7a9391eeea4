public import ZoneEngine

/// Writes `workout_finished` events straight into a reusable byte buffer: the one writer of
/// that format.
///
/// Rarer than zone changes (one per session), but built as a jansson tree each cost about
/// 90 µs (a hundred nodes built, written and freed), a tenth of a worker's time on a gym's
/// traffic for a fifth of a percent of the records. Not thread-safe: one per worker.
public struct WorkoutFinishedWriter {
    private var text = JSONTextWriter(capacity: 2048)

    public init() {}

    /// The last event written, without copying it; the bytes are valid inside `body` only.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try text.withBytes(body)
    }

    /// Writes the event for `summary` and returns a copy of its bytes.
    public mutating func write(_ summary: WorkoutSummary) -> [UInt8] {
        encode(summary)
        return text.bytes
    }

    /// Writes the event for `summary` into the writer's buffer (read it with ``withBytes(_:)``).
    public mutating func encode(_ summary: WorkoutSummary) {
        text.removeAll()
        text.append(#"{"schema":1,"type":"workout_finished","session":"#)
        text.appendString(summary.session)
        text.append(#","person":"#)
        if let person = summary.person { text.appendString(person) } else { text.append("null") }
        text.append(#","class":"#)
        if let sessionClass = summary.sessionClass { text.appendString(sessionClass) } else { text.append("null") }
        text.append(#","activity":"#)
        text.appendString(summary.activity)
        text.append(#","start_ts":"#)
        text.appendInteger(summary.startTimestamp)
        text.append(#","end_ts":"#)
        text.appendInteger(summary.endTimestamp)
        text.append(#","end_reason":""#)
        text.appendUnescaped(summary.endReason.rawValue)
        text.append(#"","duration_ms":"#)
        text.appendInteger(summary.durationMs)
        text.append(#","paused_ms":"#)
        text.appendInteger(summary.pausedMs)
        text.append(#","zone_groups":"#)
        appendZoneGroups(summary.zoneGroups)
        text.append(#","activities":"#)
        appendActivities(summary.activities)
        text.append(#","statistics":"#)
        appendStatistics(summary.statistics)
        text.append(#","effort":"#)
        appendEffort(summary.effort)
        text.append(#","plan":"#)
        text.appendPlanSummary(summary.plan)
        text.append(#","quality":"#)
        appendQuality(summary)
        if let normalized = summary.normalizedZoneGroups {
            text.append(#","normalized_zone_groups":"#)
            appendZoneGroups(normalized)
        }
        text.append("}")
    }

    /// `[{"activity",…,"zone_groups"},…]`: the workout's activities in order.
    private mutating func appendActivities(_ activities: [WorkoutSummary.Activity]) {
        text.append("[")
        for (index, activity) in activities.enumerated() {
            if index > 0 { text.append(",") }
            text.append(#"{"activity":"#)
            text.appendString(activity.name)
            text.append(#","start_ts":"#)
            text.appendInteger(activity.startTimestamp)
            text.append(#","end_ts":"#)
            text.appendInteger(activity.endTimestamp)
            text.append(#","zone_groups":"#)
            appendZoneGroups(activity.zoneGroups)
            text.append("}")
        }
        text.append("]")
    }

    /// `{"heart_rate":{"min","max","avg","samples"},…}`, each quantity that had samples.
    private mutating func appendStatistics(_ statistics: [WorkoutSummary.Statistics]) {
        text.append("{")
        for (index, entry) in statistics.enumerated() {
            if index > 0 { text.append(",") }
            appendKey(entry.quantity)
            text.append(#"{"min":"#)
            text.appendNumber(entry.minimum)
            text.append(#","max":"#)
            text.appendNumber(entry.maximum)
            text.append(#","avg":"#)
            text.appendReal(entry.average)
            text.append(#","samples":"#)
            text.appendInteger(Int64(entry.samples))
            text.append("}")
        }
        text.append("}")
    }

    /// `{"late_samples",…,"untracked_ms":{…}}`.
    private mutating func appendQuality(_ summary: WorkoutSummary) {
        text.append(#"{"late_samples":"#)
        text.appendInteger(Int64(summary.lateSamples))
        text.append(#","duplicate_samples":"#)
        text.appendInteger(Int64(summary.duplicateSamples))
        text.append(#","paused_samples":"#)
        text.appendInteger(Int64(summary.pausedSamples))
        text.append(#","untracked_ms":{"#)
        for (index, entry) in summary.untrackedMs.enumerated() {
            if index > 0 { text.append(",") }
            appendKey(entry.quantity)
            text.appendInteger(entry.milliseconds)
        }
        text.append("}}")
    }

    /// `{"heart_rate":{"max_hr",…},"cycling_power":{"kilojoules"}}`, each where it is counted.
    private mutating func appendEffort(_ effort: WorkoutEffort) {
        text.append("{")
        if let heartRate = effort.heartRate {
            text.append(#""heart_rate":{"max_hr":"#)
            text.appendNumber(heartRate.maximumHeartRate)
            text.append(#","intensity_ms":["#)
            for (index, milliseconds) in heartRate.intensityMs.enumerated() {
                if index > 0 { text.append(",") }
                text.appendInteger(milliseconds)
            }
            text.append(#"],"points":"#)
            text.appendTenths(heartRate.pointsTenths)
            text.append(#","score":"#)
            if let score = heartRate.score { text.appendInteger(score) } else { text.append("null") }
            if let calories = heartRate.caloriesKcal {
                text.append(#","calories_kcal":"#)
                text.appendInteger(calories)
            }
            text.append("}")
        }
        if let kilojoules = effort.kilojoulesTenths {
            if effort.heartRate != nil { text.append(",") }
            text.append(#""cycling_power":{"kilojoules":"#)
            text.appendTenths(kilojoules)
            text.append("}")
        }
        text.append("}")
    }

    /// `"quantity_name":`
    private mutating func appendKey(_ quantity: Quantity) {
        text.append(#"""#)
        text.appendUnescaped(quantity.name)
        text.append(#"":"#)
    }

    /// `{"heart_rate":{"configuration":{…},"zone_durations":[…]},…}`, one member per group.
    /// Groups are one per quantity, so no key repeats (jansson would keep the last).
    private mutating func appendZoneGroups(_ groups: [WorkoutSummary.ZoneGroup]) {
        text.append("{")
        for (index, group) in groups.enumerated() {
            if index > 0 { text.append(",") }
            let configuration = group.configuration
            appendKey(configuration.quantity)
            text.append(#"{"configuration":{"#)
            text.appendConfigurationFields(configuration)
            text.append(#"},"zone_durations":["#)
            for zone in 0..<configuration.zoneCount {
                if zone > 0 { text.append(",") }
                text.appendZoneFields(zone, of: configuration)
                text.append(#","duration_ms":"#)
                text.appendInteger(group.durations[zone])
                text.append("}")
            }
            text.append("]}")
        }
        text.append("}")
    }
}

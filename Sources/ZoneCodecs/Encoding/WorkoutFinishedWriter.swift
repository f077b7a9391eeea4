public import ZoneEngine

/// Writes `workout_finished` events straight into a reusable byte buffer. Byte for byte the
/// same as ``OutputEncoder/workoutFinished(_:)`` (jansson), which a differential test checks.
///
/// Rarer than zone changes (one per session), but through jansson each cost about 90 µs: a
/// tree of a hundred nodes built, written and freed. In a gym run's profile that was a tenth
/// of a worker's time for a fifth of a percent of the records (session 11). Not thread-safe:
/// one per worker.
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
        text.append(#","activities":["#)
        for (index, activity) in summary.activities.enumerated() {
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
        text.append(#"],"statistics":{"#)
        for (index, entry) in summary.statistics.enumerated() {
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
        text.append(#"},"quality":{"late_samples":"#)
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
        if let normalized = summary.normalizedZoneGroups {
            text.append(#","normalized_zone_groups":"#)
            appendZoneGroups(normalized)
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

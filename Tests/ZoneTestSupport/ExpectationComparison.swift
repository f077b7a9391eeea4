import Foundation
public import ZoneEngine
import ZoneSimulation

/// Compares engine values with the contract's expected JSON objects, field by field,
/// returning one line per difference (empty when equal).
public enum ExpectationComparison {
    public static func differences(
        _ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration,
        expected: [String: Any]
    ) -> [String] {
        var out: [String] = []
        func check(_ field: String, _ actual: Any?, _ wanted: Any?) {
            if !jsonEqual(actual, wanted) {
                out.append("\(field): got \(String(describing: actual)), want \(String(describing: wanted))")
            }
        }
        check("event_id", "\(session)/\(change.quantity.name)/\(change.timestamp)", expected["event_id"])
        check("session", session, expected["session"])
        check("person", person, expected["person"])
        check("quantity", change.quantity.name, expected["quantity"])
        check("ts", change.timestamp, expected["ts"])
        check("previous_zone", change.previousZone.map { zoneObject($0, configuration) }, expected["previous_zone"])
        check("current_zone", zoneObject(change.currentZone, configuration), expected["current_zone"])
        check("configuration", configurationObject(configuration), expected["configuration"])
        check("zone_durations", durationObjects(change.durations, configuration), expected["zone_durations"])
        return out
    }

    public static func differences(_ summary: WorkoutSummary, expected: [String: Any]) -> [String] {
        var out: [String] = []
        func check(_ field: String, _ actual: Any?, _ wanted: Any?) {
            if !jsonEqual(actual, wanted) {
                out.append("\(field): got \(String(describing: actual)), want \(String(describing: wanted))")
            }
        }
        check("session", summary.session, expected["session"])
        check("person", summary.person, expected["person"])
        check("activity", summary.activity, expected["activity"])
        check("start_ts", summary.startTimestamp, expected["start_ts"])
        check("end_ts", summary.endTimestamp, expected["end_ts"])
        check("end_reason", summary.endReason.rawValue, expected["end_reason"])
        check("duration_ms", summary.durationMs, expected["duration_ms"])
        check("paused_ms", summary.pausedMs, expected["paused_ms"])
        check("zone_groups", groupsObject(summary.zoneGroups), expected["zone_groups"])
        check(
            "activities",
            summary.activities.map {
                [
                    "activity": $0.name, "start_ts": $0.startTimestamp, "end_ts": $0.endTimestamp,
                    "zone_groups": groupsObject($0.zoneGroups),
                ] as [String: Any]
            }, expected["activities"])
        var statistics: [String: Any] = [:]
        for entry in summary.statistics {
            statistics[entry.quantity.name] =
                [
                    "min": entry.minimum, "max": entry.maximum, "avg": Self.asParsed(entry.average),
                    "samples": entry.samples,
                ] as [String: Any]
        }
        check("statistics", statistics, expected["statistics"])
        var untracked: [String: Any] = [:]
        for entry in summary.untrackedMs { untracked[entry.quantity.name] = entry.milliseconds }
        check(
            "quality",
            [
                "late_samples": summary.lateSamples, "duplicate_samples": summary.duplicateSamples,
                "paused_samples": summary.pausedSamples, "untracked_ms": untracked,
            ] as [String: Any], expected["quality"])
        if summary.normalizedZoneGroups != nil || expected["normalized_zone_groups"] != nil {
            check(
                "normalized_zone_groups", groupsObject(summary.normalizedZoneGroups ?? []),
                expected["normalized_zone_groups"])
        }
        return out
    }

    static func zoneObject(_ zone: Int, _ configuration: ZoneConfiguration) -> [String: Any] {
        [
            "index": zone + 1, "min": configuration.lowerBound(ofZone: zone) as Any,
            "max": configuration.upperBound(ofZone: zone) as Any,
        ]
    }

    static func configurationObject(_ configuration: ZoneConfiguration) -> [String: Any] {
        [
            "source": configuration.source.rawValue, "unit": configuration.unit,
            "boundaries": configuration.boundaries.values,
        ]
    }

    static func durationObjects(_ durations: ZoneDurations, _ configuration: ZoneConfiguration) -> [[String: Any]] {
        (0..<configuration.zoneCount).map { zone in
            var object = zoneObject(zone, configuration)
            object["duration_ms"] = durations[zone]
            return object
        }
    }

    static func groupsObject(_ groups: [WorkoutSummary.ZoneGroup]) -> [String: Any] {
        var object: [String: Any] = [:]
        for group in groups {
            object[group.configuration.quantity.name] =
                [
                    "configuration": configurationObject(group.configuration),
                    "zone_durations": durationObjects(group.durations, group.configuration),
                ] as [String: Any]
        }
        return object
    }

    /// JSON equality, the one shared with the load generator's check.
    public static func jsonEqual(_ lhs: Any?, _ rhs: Any?) -> Bool { JSONComparison.equal(lhs, rhs) }

    /// A double as Foundation's JSON reader reads back its shortest text, as the expected
    /// values were read: that reader can land a unit in the last place away from the double
    /// the text stands for (226.66666666666666).
    static func asParsed(_ value: Double) -> Any {
        guard let data = "[\(value)]".data(using: .utf8),
            let parsed = (try? JSONSerialization.jsonObject(with: data)) as? [Any], let first = parsed.first
        else { return value }
        return first
    }
}

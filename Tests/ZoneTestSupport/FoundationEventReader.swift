import Foundation
public import ZoneEngine

/// Turns well-formed example events and profiles into engine values with Foundation's JSON
/// reader. Test-only: it trusts its input (the codecs' decoder is what checks input).
public enum FoundationEventReader {
    /// The event, or nil for input that is not a well-formed event object.
    public static func event(from value: Any) -> WorkoutEvent? {
        guard let object = value as? [String: Any], let type = object["type"] as? String,
            let session = object["session"] as? String, let ts = (object["ts"] as? NSNumber)?.int64Value
        else { return nil }
        let person = object["person"] as? String
        switch type {
        case "sample", "sample_series":
            guard let quantity = (object["quantity"] as? String).flatMap(Quantity.init(name:)) else { return nil }
            let factor = quantity.conversionFactor(forUnit: object["unit"] as? String ?? quantity.canonicalUnit) ?? 1
            if type == "sample" {
                guard let value = (object["value"] as? NSNumber)?.doubleValue else { return nil }
                return WorkoutEvent(
                    session: session, timestamp: ts, body: .sample(quantity, value: value * factor, person: person))
            }
            guard let interval = (object["interval_ms"] as? NSNumber)?.int64Value,
                let values = object["values"] as? [NSNumber]
            else { return nil }
            return WorkoutEvent(
                session: session, timestamp: ts,
                body: .sampleSeries(
                    quantity, intervalMs: interval, values: values.map { $0.doubleValue * factor }, person: person))
        case "session_start":
            var zones = PerQuantity<ZoneConfiguration?>(repeating: nil)
            for (name, entry) in object["zones"] as? [String: [String: Any]] ?? [:] {
                guard let quantity = Quantity(name: name),
                    let boundaries = (entry["boundaries"] as? [NSNumber])?.map(\.doubleValue)
                else { continue }
                zones[quantity] = try? ZoneConfiguration.validated(
                    quantity: quantity, source: .app, boundaries: boundaries, unit: entry["unit"] as? String)
            }
            return WorkoutEvent(
                session: session, timestamp: ts,
                body: .sessionStart(
                    SessionStartRequest(
                        person: person, activity: object["activity"] as? String,
                        sessionClass: object["class"] as? String, zones: zones)))
        case "session_end": return WorkoutEvent(session: session, timestamp: ts, body: .sessionEnd)
        case "pause": return WorkoutEvent(session: session, timestamp: ts, body: .pause)
        case "resume": return WorkoutEvent(session: session, timestamp: ts, body: .resume)
        case "activity_start":
            guard let activity = object["activity"] as? String else { return nil }
            return WorkoutEvent(session: session, timestamp: ts, body: .activityStart(activity))
        case "activity_end": return WorkoutEvent(session: session, timestamp: ts, body: .activityEnd)
        default: return nil
        }
    }

    public static func profile(from object: [String: Any], person: String) -> PersonProfile {
        var preferred = PerQuantity<ZoneConfiguration?>(repeating: nil)
        for (name, entry) in object["preferred"] as? [String: [String: Any]] ?? [:] {
            guard let quantity = Quantity(name: name),
                let boundaries = (entry["boundaries"] as? [NSNumber])?.map(\.doubleValue)
            else { continue }
            preferred[quantity] = try? ZoneConfiguration.validated(
                quantity: quantity, source: .user, boundaries: boundaries, unit: entry["unit"] as? String)
        }
        return PersonProfile(
            person: person, name: object["name"] as? String, age: (object["age"] as? NSNumber)?.doubleValue,
            restingHeartRate: (object["resting_hr"] as? NSNumber)?.doubleValue,
            maximumHeartRate: (object["max_hr"] as? NSNumber)?.doubleValue,
            functionalThresholdPower: (object["ftp"] as? NSNumber)?.doubleValue,
            weightKg: (object["weight_kg"] as? NSNumber)?.doubleValue,
            sex: (object["sex"] as? String).flatMap(PersonProfile.Sex.init(rawValue:)), preferredZones: preferred)
    }
}

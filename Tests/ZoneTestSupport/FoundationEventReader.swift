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
            var request = SessionStartRequest(
                person: person, activity: object["activity"] as? String, sessionClass: object["class"] as? String,
                zones: zones)
            if let plan = object["plan"] as? [String: Any] {
                request.plan = Self.plan(from: plan, anchor: ts, source: .session)
                if request.plan == nil { request.planDefect = "a plan the examples' reader refuses" }
            }
            return WorkoutEvent(session: session, timestamp: ts, body: .sessionStart(request))
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

    /// A well-formed plan (`plan`, `steps` with repeat blocks one level deep), flattened; nil
    /// for one that nests blocks or lacks what a step needs.
    public static func plan(from object: [String: Any], anchor: Int64, source: WorkoutPlan.Source) -> WorkoutPlan? {
        func step(_ entry: [String: Any]) -> PlanStep? {
            guard let duration = (entry["duration_ms"] as? NSNumber)?.int64Value else { return nil }
            var targets = PerQuantity<PlanTarget?>(repeating: nil)
            for (name, target) in entry["target"] as? [String: [String: Any]] ?? [:] {
                guard let quantity = Quantity(name: name) else { return nil }
                if let zones = target["zones"] as? [NSNumber], zones.count == 2 {
                    targets[quantity] = .zones(low: zones[0].intValue, high: zones[1].intValue)
                } else {
                    let unit = target["unit"] as? String ?? quantity.canonicalUnit
                    let factor = quantity.conversionFactor(forUnit: unit) ?? 1
                    targets[quantity] = .values(
                        minimum: (target["min"] as? NSNumber).map { $0.doubleValue * factor },
                        maximum: (target["max"] as? NSNumber).map { $0.doubleValue * factor })
                }
            }
            let purpose = (entry["purpose"] as? String).flatMap(PlanStep.Purpose.init(rawValue:)) ?? .other
            return PlanStep(purpose: purpose, durationMs: duration, targets: targets)
        }
        var steps: [PlanStep] = []
        for entry in object["steps"] as? [[String: Any]] ?? [] {
            guard let repeats = (entry["repeat"] as? NSNumber)?.intValue else {
                guard let single = step(entry) else { return nil }
                steps.append(single)
                continue
            }
            let inner = entry["steps"] as? [[String: Any]] ?? []
            guard !inner.contains(where: { $0["repeat"] != nil }) else { return nil }
            let block = inner.compactMap(step)
            guard block.count == inner.count else { return nil }
            for _ in 0..<repeats { steps += block }
        }
        guard !steps.isEmpty else { return nil }
        return WorkoutPlan(name: object["plan"] as? String, source: source, anchor: anchor, steps: steps)
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

package import ZoneEngine

/// Turns a parsed `workout-events` value into a ``WorkoutEvent`` or the first rejection
/// that applies, in the contract's order: missing_field, bad_type, unknown_type,
/// invalid_session, key_mismatch, bad_unit, out_of_range. (too_large and malformed_json
/// are decided before parsing; the rest by the engine.)
package enum EventValidator {
    /// The largest allowed `ts`: 2^53.
    static let maximumTimestamp: Int64 = 1 << 53
    static let maximumSessionBytes = 128
    /// Limits on `person`, `activity` and `class` (docs/reference/contract.md): they bound every output.
    static let maximumPersonBytes = 128
    static let maximumActivityBytes = 64
    static let maximumClassBytes = 64
    static let maximumSeriesValues = 1000

    enum EventType {
        case sample, sampleSeries, sessionStart, sessionEnd, pause, resume, activityStart, activityEnd, unknown
    }

    static func eventType(_ value: some JSONValueView) -> EventType {
        if value.stringEquals("sample") { return .sample }
        if value.stringEquals("sample_series") { return .sampleSeries }
        if value.stringEquals("session_start") { return .sessionStart }
        if value.stringEquals("session_end") { return .sessionEnd }
        if value.stringEquals("pause") { return .pause }
        if value.stringEquals("resume") { return .resume }
        if value.stringEquals("activity_start") { return .activityStart }
        if value.stringEquals("activity_end") { return .activityEnd }
        return .unknown
    }

    static func quantity(_ value: some JSONValueView) -> Quantity? { quantity { value.stringEquals($0) } }

    /// The quantity a name matcher accepts: the one list of quantity names, shared with
    /// ``SampleFastPath``.
    static func quantity(matching equals: (StaticString) -> Bool) -> Quantity? {
        if equals("heart_rate") { return .heartRate }
        if equals("cycling_power") { return .cyclingPower }
        return nil
    }

    /// The factor of an accepted unit for the quantity, matched without allocating.
    static func unitFactor(_ value: some JSONValueView, for quantity: Quantity) -> Double? {
        unitFactor(for: quantity) { value.stringEquals($0) }
    }

    /// The factor of the unit a matcher accepts: the one list of accepted units, shared with
    /// ``SampleFastPath``.
    static func unitFactor(for quantity: Quantity, matching equals: (StaticString) -> Bool) -> Double? {
        switch quantity {
        case .heartRate:
            if equals("count/min") || equals("bpm") { return 1 }
            if equals("count/s") { return 60 }
        case .cyclingPower:
            if equals("W") { return 1 }
            if equals("kW") { return 1000 }
        }
        return nil
    }

    package static func validate<Value: JSONValueView>(_ root: Value, key: UnsafeRawBufferPointer?)
        -> Result<WorkoutEvent, Rejection>
    {
        guard root.kind == .object else { return .failure(Rejection(.malformedJSON, "value is not a JSON object")) }
        let fields = EventFields(root)
        let typeField = fields.present(.type)
        let type = typeField.map { $0.kind == .string ? eventType($0) : .unknown } ?? .unknown

        // missing_field
        for field in requiredFields(type) where fields.present(field) == nil {
            return .failure(Rejection(.missingField, "required field '\(field.name)' is absent or null"))
        }
        // Present by the check above.
        guard let typeField, let session = fields.present(.session), let ts = fields.present(.ts) else {
            return .failure(Rejection(.missingField, "required field is absent"))
        }

        // bad_type
        if let problem = badType(fields, typeField: typeField, session: session, ts: ts, type: type) {
            return .failure(Rejection(.badType, problem))
        }
        if type == .unknown {
            return .failure(Rejection(.unknownType, "unknown type '\(typeField.stringValue ?? "")'"))
        }
        let sessionBytes = session.stringByteCount
        guard sessionBytes >= 1, sessionBytes <= maximumSessionBytes else {
            return .failure(Rejection(.invalidSession, "session id must be 1 to 128 bytes, got \(sessionBytes)"))
        }
        if let key, !session.stringEquals(bytes: key) {
            return .failure(Rejection(.keyMismatch, "record key differs from the event's session"))
        }
        return build(fields: fields, type: type, session: session, ts: ts)
    }

    /// The fields a type requires (docs/reference/contract.md), common ones first.
    static func requiredFields(_ type: EventType) -> [EventField] {
        switch type {
        case .sample: [.type, .session, .ts, .quantity, .value]
        case .sampleSeries: [.type, .session, .ts, .quantity, .intervalMs, .values]
        case .activityStart: [.type, .session, .ts, .activity]
        default: [.type, .session, .ts]
        }
    }

    /// The first field of the wrong JSON type, described; nil when all types are right.
    static func badType<Value: JSONValueView>(
        _ fields: EventFields<Value>, typeField: Value, session: Value, ts: Value, type: EventType
    ) -> String? {
        if typeField.kind != .string { return "'type' must be a string" }
        if session.kind != .string { return "'session' must be a string" }
        if ts.kind != .integer { return "'ts' must be an integer" }
        func optionalString(_ field: EventField) -> String? {
            guard let value = fields.present(field) else { return nil }
            return value.kind == .string ? nil : "'\(field.name)' must be a string"
        }
        switch type {
        case .sample, .sampleSeries:
            guard let quantityField = fields.present(.quantity), quantityField.kind == .string else {
                return "'quantity' must be a string"
            }
            guard quantity(quantityField) != nil else {
                return "unknown quantity '\(quantityField.stringValue ?? "")'"
            }
            if let problem = optionalString(.unit) ?? optionalString(.person) { return problem }
            if type == .sample {
                guard fields.present(.value)?.isNumber == true else { return "'value' must be a number" }
            } else {
                guard fields.present(.intervalMs)?.kind == .integer else {
                    return "'interval_ms' must be an integer"
                }
                guard let values = fields.present(.values), values.kind == .array else {
                    return "'values' must be an array"
                }
                var allNumbers = true
                values.forEachElement { element in
                    allNumbers = element.isNumber
                    return allNumbers
                }
                if !allNumbers { return "'values' must hold only numbers" }
            }
        case .sessionStart:
            return optionalString(.person) ?? optionalString(.activity) ?? optionalString(.sessionClass)
        case .activityStart:
            return optionalString(.activity)
        case .sessionEnd, .pause, .resume, .activityEnd, .unknown:
            break
        }
        return nil
    }
}

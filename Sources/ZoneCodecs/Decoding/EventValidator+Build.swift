import ZoneEngine

extension EventValidator {
    /// Checks units and ranges (bad_unit, out_of_range) and builds the event.
    static func build<Value: JSONValueView>(
        fields: EventFields<Value>, type: EventType, session: Value, ts: Value
    )
        -> Result<WorkoutEvent, Rejection>
    {
        let sessionID = session.stringValue ?? ""
        // The unit check comes before every range check, ts included.
        var factor = 1.0
        var quantityValue = Quantity.heartRate
        if type == .sample || type == .sampleSeries {
            // Type-checked already: a known quantity.
            quantityValue = fields.present(.quantity).flatMap { quantity($0) } ?? .heartRate
            if let unit = fields.present(.unit) {
                guard let unitFactor = unitFactor(unit, for: quantityValue) else {
                    return .failure(
                        Rejection(
                            .badUnit, "unit '\(unit.stringValue ?? "")' is not accepted for \(quantityValue.name)"))
                }
                factor = unitFactor
            }
        }
        guard let timestamp = ts.integerValue, timestamp >= 0, timestamp <= maximumTimestamp else {
            return .failure(Rejection(.outOfRange, "'ts' must be between 0 and 2^53"))
        }
        if let problem = overlongName(fields, type: type) { return .failure(Rejection(.outOfRange, problem)) }
        let person = fields.present(.person)?.stringValue
        let body: WorkoutEvent.Body
        switch type {
        case .sample:
            let value = (fields.present(.value)?.doubleValue ?? .nan) * factor
            guard value.isFinite, quantityValue.isValidReading(value) else {
                return .failure(Rejection(.outOfRange, "\(quantityValue.name) value out of range"))
            }
            body = .sample(quantityValue, value: value, person: person)
        case .sampleSeries:
            switch seriesBody(fields, quantity: quantityValue, factor: factor, timestamp: timestamp, person: person) {
            case .success(let series): body = series
            case .failure(let rejection): return .failure(rejection)
            }
        case .sessionStart:
            body = .sessionStart(sessionStart(fields, person: person, timestamp: timestamp))
        case .sessionEnd: body = .sessionEnd
        case .pause: body = .pause
        case .resume: body = .resume
        case .activityStart: body = .activityStart(fields.present(.activity)?.stringValue ?? "")
        case .activityEnd: body = .activityEnd
        case .unknown: return .failure(Rejection(.unknownType, "unknown type"))
        }
        return .success(WorkoutEvent(session: sessionID, timestamp: timestamp, body: body))
    }

    /// A `session_start`'s zones request, with its plan; a plan that is not an object (or
    /// breaks any rule) is a defect the session reports, a null plan is absent.
    static func sessionStart<Value: JSONValueView>(_ fields: EventFields<Value>, person: String?, timestamp: Int64)
        -> SessionStartRequest
    {
        var request = ZonesReader.request(
            zones: fields[.zones], person: person, activity: fields.present(.activity)?.stringValue,
            sessionClass: fields.present(.sessionClass)?.stringValue)
        if let planField = fields.present(.plan) {
            switch PlanReader.read(planField, anchor: timestamp, source: .session) {
            case .success(let plan) where plan.end <= maximumTimestamp: request.plan = plan
            case .success: request.planDefect = "the plan ends past 2^53"
            case .failure(let defect): request.planDefect = defect.description
            }
        }
        return request
    }

    /// `person` over 128 UTF-8 bytes, `activity` over 64, or a `class` that is empty or over
    /// 64, on the types that have them (on other types they are unknown fields and ignored);
    /// nil when all are within limits.
    static func overlongName<Value: JSONValueView>(_ fields: EventFields<Value>, type: EventType) -> String? {
        let hasPerson = type == .sample || type == .sampleSeries || type == .sessionStart
        let hasActivity = type == .sessionStart || type == .activityStart
        if hasPerson, let person = fields.present(.person), person.stringByteCount > maximumPersonBytes {
            return "'person' must be at most \(maximumPersonBytes) bytes, got \(person.stringByteCount)"
        }
        if hasActivity, let activity = fields.present(.activity), activity.stringByteCount > maximumActivityBytes {
            return "'activity' must be at most \(maximumActivityBytes) bytes, got \(activity.stringByteCount)"
        }
        if type == .sessionStart, let sessionClass = fields.present(.sessionClass) {
            let bytes = sessionClass.stringByteCount
            if bytes < 1 || bytes > maximumClassBytes {
                return "'class' must be 1 to \(maximumClassBytes) bytes, got \(bytes)"
            }
        }
        return nil
    }

    static func seriesBody<Value: JSONValueView>(
        _ fields: EventFields<Value>, quantity: Quantity, factor: Double, timestamp: Int64, person: String?
    ) -> Result<WorkoutEvent.Body, Rejection> {
        guard let intervalField = fields.present(.intervalMs), let interval = intervalField.integerValue,
            interval > 0
        else { return .failure(Rejection(.outOfRange, "'interval_ms' must be greater than 0")) }
        guard let valuesField = fields.present(.values) else {
            return .failure(Rejection(.missingField, "'values' is absent"))
        }
        let count = valuesField.elementCount
        guard count >= 1, count <= maximumSeriesValues else {
            return .failure(Rejection(.outOfRange, "'values' must hold 1 to 1000 numbers, got \(count)"))
        }
        let (span, overflow) = interval.multipliedReportingOverflow(by: Int64(count - 1))
        guard !overflow, span <= maximumTimestamp - timestamp else {
            return .failure(Rejection(.outOfRange, "the series runs past ts 2^53"))
        }
        var values: [Double] = []
        values.reserveCapacity(count)
        var valid = true
        valuesField.forEachElement { element in
            let value = (element.doubleValue ?? .nan) * factor
            valid = value.isFinite && quantity.isValidReading(value)
            values.append(value)
            return valid
        }
        guard valid else {
            return .failure(Rejection(.outOfRange, "a \(quantity.name) value of the series is out of range"))
        }
        return .success(.sampleSeries(quantity, intervalMs: interval, values: values, person: person))
    }
}

public import ZoneEngine

/// The records of the class stage's repartition topic: a finished workout that has a class,
/// re-keyed by that class and reduced to what the class's summary counts.
///
/// `{"schema":1,"type":"class_workout","class","session","start_ts","end_ts","duration_ms",
/// "person","points_tenths","calories_kcal","kilojoules_tenths","intensity_ms":[6],
/// "compliance":null|{quantity:{"in_ms","counted_ms"}}}`. Internal to ZoneStream, but a record
/// written there by hand is read like any input: a defect is a dead letter with its reason.
public struct ClassWorkoutCodec {
    private var text = JSONTextWriter(capacity: 512)
    private var tape = JSONTape()

    public init() {}

    /// The repartition record of a finished workout of `sessionClass` (its key is the class).
    public mutating func encode(_ workout: ClassWorkout, sessionClass: String) -> [UInt8] {
        text.removeAll()
        text.append(#"{"schema":1,"type":"class_workout","class":"#)
        text.appendString(sessionClass)
        text.append(#","session":"#)
        text.appendString(workout.session)
        text.append(#","start_ts":"#)
        text.appendInteger(workout.startTimestamp)
        text.append(#","end_ts":"#)
        text.appendInteger(workout.endTimestamp)
        text.append(#","duration_ms":"#)
        text.appendInteger(workout.durationMs)
        text.append(#","person":"#)
        if let person = workout.person { text.appendString(person) } else { text.append("null") }
        for (name, figure): (StaticString, Int64?) in [
            (#","points_tenths":"#, workout.pointsTenths), (#","calories_kcal":"#, workout.caloriesKcal),
            (#","kilojoules_tenths":"#, workout.kilojoulesTenths),
        ] {
            text.append(name)
            if let figure { text.appendInteger(figure) } else { text.append("null") }
        }
        text.append(#","intensity_ms":["#)
        for (index, band) in workout.intensityMs.enumerated() {
            if index > 0 { text.append(",") }
            text.appendInteger(band)
        }
        text.append(#"],"compliance":"#)
        if let compliance = workout.compliance {
            text.append("{")
            var first = true
            for quantity in Quantity.allCases {
                guard let counts = compliance[quantity] else { continue }
                if !first { text.append(",") }
                first = false
                text.append("\"")
                text.appendUnescaped(quantity.name)
                text.append(#"":{"in_ms":"#)
                text.appendInteger(counts.inMs)
                text.append(#","counted_ms":"#)
                text.appendInteger(counts.countedMs)
                text.append("}")
            }
            text.append("}")
        } else {
            text.append("null")
        }
        text.append("}")
        return text.bytes
    }

    /// The class and workout of a repartition record, or why it cannot be counted.
    public mutating func decode(value: UnsafeRawBufferPointer?, key: UnsafeRawBufferPointer?)
        -> Result<(sessionClass: String, workout: ClassWorkout), Rejection>
    {
        InternalRecordParser.parse(value, maximumBytes: Self.maximumBytes, tape: &tape) { Self.read($0, key: key) }
    }

    /// Ids of at most 128 bytes and numbers: no valid record comes near this.
    static let maximumBytes = 4096

    static func read<Value: JSONValueView>(_ root: Value, key: UnsafeRawBufferPointer?)
        -> Result<(sessionClass: String, workout: ClassWorkout), Rejection>
    {
        guard root.kind == .object else { return .failure(Rejection(.malformedJSON, "value is not a JSON object")) }
        let required: [StaticString] = ["class", "session", "start_ts", "end_ts", "duration_ms", "intensity_ms"]
        for name in required where root.presentMember(name) == nil {
            return .failure(Rejection(.missingField, "required field '\(name)' is absent or null"))
        }
        guard let classField = root.presentMember("class"), classField.kind == .string,
            let sessionField = root.presentMember("session"), sessionField.kind == .string
        else { return .failure(Rejection(.badType, "'class' and 'session' must be strings")) }
        func integer(_ name: StaticString) -> Int64? { root.presentMember(name)?.integerValue }
        func optionalInteger(_ name: StaticString) -> Result<Int64?, Rejection> {
            guard let field = root.presentMember(name) else { return .success(nil) }
            guard let value = field.integerValue else {
                return .failure(Rejection(.badType, "'\(name)' must be an integer or null"))
            }
            return .success(value)
        }
        guard let start = integer("start_ts"), let end = integer("end_ts"), let duration = integer("duration_ms") else {
            return .failure(Rejection(.badType, "times and duration must be integers"))
        }
        let person = root.presentMember("person")
        if let person, person.kind != .string { return .failure(Rejection(.badType, "'person' must be a string")) }
        let figures: [Int64?]
        switch (
            optionalInteger("points_tenths"), optionalInteger("calories_kcal"), optionalInteger("kilojoules_tenths")
        ) {
        case (.success(let points), .success(let calories), .success(let work)): figures = [points, calories, work]
        case (.failure(let rejection), _, _), (_, .failure(let rejection), _), (_, _, .failure(let rejection)):
            return .failure(rejection)
        }
        guard let intensity = integers(root.presentMember("intensity_ms")) else {
            return .failure(Rejection(.badType, "'intensity_ms' must be an array of integers"))
        }
        guard let compliance = complianceCounts(root.presentMember("compliance")) else {
            return .failure(Rejection(.badType, "'compliance' must be null or {quantity: {in_ms, counted_ms}}"))
        }
        if let key, !classField.stringEquals(bytes: key) {
            return .failure(Rejection(.keyMismatch, "record key differs from the workout's class"))
        }
        guard (1...64).contains(classField.stringByteCount), (1...128).contains(sessionField.stringByteCount),
            (person?.stringByteCount ?? 0) <= 128
        else { return .failure(Rejection(.outOfRange, "'class', 'session' or 'person' of the wrong length")) }
        let workout = ClassWorkout(
            session: sessionField.stringValue ?? "", startTimestamp: start, endTimestamp: end, durationMs: duration,
            person: person?.stringValue, pointsTenths: figures[0], caloriesKcal: figures[1],
            kilojoulesTenths: figures[2], intensityMs: intensity, compliance: compliance)
        guard workout.isWithinBounds else {
            return .failure(Rejection(.outOfRange, "times, durations or figures outside what a workout can have"))
        }
        return .success((classField.stringValue ?? "", workout))
    }

    private static func integers<Value: JSONValueView>(_ field: Value?) -> [Int64]? {
        guard let field, field.kind == .array, field.elementCount == 6 else { return nil }
        var values: [Int64] = []
        field.forEachElement { element in
            guard let value = element.integerValue else { return false }
            values.append(value)
            return true
        }
        return values.count == 6 ? values : nil
    }

    /// nil for a defect; `.some(nil)` for a workout without a plan.
    private static func complianceCounts<Value: JSONValueView>(_ field: Value?) -> PerQuantity<
        ClassWorkout.ComplianceCounts?
    >?? {
        guard let field else { return .some(nil) }
        guard field.kind == .object else { return nil }
        var counts = PerQuantity<ClassWorkout.ComplianceCounts?>(repeating: nil)
        for (name, entry) in field.members {
            guard let quantity = Quantity(name: name), entry.kind == .object,
                let inside = entry.presentMember("in_ms")?.integerValue,
                let counted = entry.presentMember("counted_ms")?.integerValue
            else { return nil }
            counts[quantity] = ClassWorkout.ComplianceCounts(inMs: inside, countedMs: counted)
        }
        return .some(counts)
    }
}

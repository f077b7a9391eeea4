public import ZoneEngine

/// The records of the person stage's repartition topic: a finished workout that has a person,
/// re-keyed by that person and reduced to what the person's summary counts.
///
/// `{"schema":1,"type":"person_workout","person","session","start_ts","end_ts","duration_ms",
/// "points_tenths","calories_kcal","kilojoules_tenths"}`. Internal to ZoneStream, but a record
/// written there by hand is read like any input: a defect is a dead letter with its reason.
public struct PersonWorkoutCodec {
    private var text = JSONTextWriter(capacity: 256)
    private var tape = JSONTape()

    public init() {}

    /// The repartition record of a finished workout with a person (its key is the person).
    public mutating func encode(_ workout: CountedWorkout, person: String) -> [UInt8] {
        text.removeAll()
        text.append(#"{"schema":1,"type":"person_workout","person":"#)
        text.appendString(person)
        text.append(#","session":"#)
        text.appendString(workout.session)
        text.append(#","start_ts":"#)
        text.appendInteger(workout.startTimestamp)
        text.append(#","end_ts":"#)
        text.appendInteger(workout.endTimestamp)
        text.append(#","duration_ms":"#)
        text.appendInteger(workout.durationMs)
        text.append(#","points_tenths":"#)
        text.appendInteger(workout.pointsTenths)
        text.append(#","calories_kcal":"#)
        text.appendInteger(workout.caloriesKcal)
        text.append(#","kilojoules_tenths":"#)
        text.appendInteger(workout.kilojoulesTenths)
        text.append("}")
        return text.bytes
    }

    /// The person and workout of a repartition record, or why it cannot be counted.
    public mutating func decode(value: UnsafeRawBufferPointer?, key: UnsafeRawBufferPointer?)
        -> Result<(person: String, workout: CountedWorkout), Rejection>
    {
        InternalRecordParser.parse(value, maximumBytes: Self.maximumBytes, tape: &tape) { Self.read($0, key: key) }
    }

    /// Person and session ids are at most 128 bytes, and every other field a number: no
    /// valid record comes near this.
    static let maximumBytes = 4096

    static func read<Value: JSONValueView>(_ root: Value, key: UnsafeRawBufferPointer?)
        -> Result<(person: String, workout: CountedWorkout), Rejection>
    {
        guard root.kind == .object else { return .failure(Rejection(.malformedJSON, "value is not a JSON object")) }
        let names: [StaticString] = [
            "person", "session", "start_ts", "end_ts", "duration_ms", "points_tenths", "calories_kcal",
            "kilojoules_tenths",
        ]
        var fields: [Value] = []
        for name in names {
            guard let field = root.presentMember(name) else {
                return .failure(Rejection(.missingField, "required field '\(name)' is absent or null"))
            }
            fields.append(field)
        }
        guard fields[0].kind == .string, fields[1].kind == .string else {
            return .failure(Rejection(.badType, "'person' and 'session' must be strings"))
        }
        var numbers: [Int64] = []
        for (index, field) in fields.enumerated().dropFirst(2) {
            guard let number = field.integerValue else {
                return .failure(Rejection(.badType, "'\(names[index])' must be an integer"))
            }
            numbers.append(number)
        }
        for (bytes, name) in [(fields[0].stringByteCount, "person"), (fields[1].stringByteCount, "session")]
        where bytes < 1 || bytes > 128 {
            return .failure(Rejection(.invalidSession, "'\(name)' must be 1 to 128 bytes, got \(bytes)"))
        }
        if let key, !fields[0].stringEquals(bytes: key) {
            return .failure(Rejection(.keyMismatch, "record key differs from the workout's person"))
        }
        let workout = CountedWorkout(
            session: fields[1].stringValue ?? "", startTimestamp: numbers[0], endTimestamp: numbers[1],
            durationMs: numbers[2], pointsTenths: numbers[3], caloriesKcal: numbers[4], kilojoulesTenths: numbers[5])
        guard workout.isWithinBounds else {
            return .failure(
                Rejection(
                    .outOfRange,
                    "times must lie in 0...2^53 with duration_ms their difference, and each figure in 0...\(CountedWorkout.maximumFigure)"
                ))
        }
        return .success((fields[0].stringValue ?? "", workout))
    }
}

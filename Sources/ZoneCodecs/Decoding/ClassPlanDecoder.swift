public import ZoneEngine

/// Decodes `class-plans` records (contract, section 3): `{"class", "start_ts", "plan",
/// "steps"}`, keyed by the class, a null value deleting the class's plan. Every rule is
/// checked in the contract's order of reasons; a record that breaks one is dead-lettered and
/// the class its key names then has no plan.
public struct ClassPlanDecoder {
    private var tape = JSONTape()
    /// Values longer than this are `too_large` (`max_message_bytes`).
    public var maxMessageBytes: Int

    public init(maxMessageBytes: Int = 65_536) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// What a record means for the class-plan table.
    public enum Outcome: Sendable, Equatable {
        /// The class's plan, anchored at its `start_ts`.
        case upsert(sessionClass: String, plan: WorkoutPlan)
        /// A null value: the class has no plan.
        case delete(sessionClass: String)
    }

    /// The most bytes of a class id (contract, section 3).
    static let maximumClassBytes = 64

    public mutating func decode(value: UnsafeRawBufferPointer?, key: UnsafeRawBufferPointer?) -> Result<
        Outcome, Rejection
    > {
        guard let value else {
            guard let key else { return .failure(Rejection(.missingField, "class plan tombstone without a key")) }
            return .success(.delete(sessionClass: String(decoding: key, as: UTF8.self)))
        }
        guard value.count <= maxMessageBytes else {
            return .failure(Rejection(.tooLarge, "value of \(value.count) bytes is over \(maxMessageBytes)"))
        }
        do {
            try StrictJSONParser.parse(value, into: &tape)
        } catch {
            return .failure(Rejection(.malformedJSON, "\(error.message) at byte \(error.offset)"))
        }
        return tape.nodes.withUnsafeBufferPointer { nodes in
            Self.read(TapeValue(nodes: nodes, bytes: value, index: 0), key: key)
        }
    }

    static func read<Value: JSONValueView>(_ root: Value, key: UnsafeRawBufferPointer?) -> Result<Outcome, Rejection> {
        guard root.kind == .object else { return .failure(Rejection(.malformedJSON, "value is not a JSON object")) }
        guard let classField = root.presentMember("class") else {
            return .failure(Rejection(.missingField, "required field 'class' is absent or null"))
        }
        guard let startField = root.presentMember("start_ts") else {
            return .failure(Rejection(.missingField, "required field 'start_ts' is absent or null"))
        }
        guard classField.kind == .string else { return .failure(Rejection(.badType, "'class' must be a string")) }
        guard let start = startField.integerValue, startField.kind == .integer else {
            return .failure(Rejection(.badType, "'start_ts' must be an integer"))
        }
        guard let key, classField.stringEquals(bytes: key) else {
            return .failure(Rejection(.keyMismatch, "the record's key is absent or differs from 'class'"))
        }
        guard (1...maximumClassBytes).contains(classField.stringByteCount) else {
            return .failure(Rejection(.outOfRange, "'class' must be 1 to 64 bytes"))
        }
        guard start >= 0, start <= 1 << 53 else {
            return .failure(Rejection(.outOfRange, "'start_ts' must be between 0 and 2^53"))
        }
        switch PlanReader.read(root, anchor: start, source: .class) {
        case .success(let plan):
            guard plan.end <= 1 << 53 else { return .failure(Rejection(.invalidPlan, "the plan ends past 2^53")) }
            return .success(.upsert(sessionClass: classField.stringValue ?? "", plan: plan))
        case .failure(let defect):
            return .failure(Rejection(.invalidPlan, defect.description))
        }
    }
}

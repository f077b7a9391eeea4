public import ZoneEngine

/// Decodes `zone-profiles` records. Invalid fields are ignored (the next zone source
/// applies); only a value that is not a JSON object is refused.
public struct ProfileDecoder {
    private var tape = JSONTape()

    public init() {}

    /// What a profile record means for the table.
    public enum Outcome: Sendable, Equatable {
        case upsert(PersonProfile)
        /// A null value: delete the person's profile.
        case delete(person: String)
    }

    public mutating func decode(value: UnsafeRawBufferPointer?, key: String?) -> Result<Outcome, Rejection> {
        guard let value else {
            guard let key else { return .failure(Rejection(.missingField, "profile tombstone without a key")) }
            return .success(.delete(person: key))
        }
        do {
            try StrictJSONParser.parse(value, into: &tape)
        } catch {
            return .failure(Rejection(.malformedJSON, "\(error.message) at byte \(error.offset)"))
        }
        return tape.nodes.withUnsafeBufferPointer { nodes in
            Self.profile(TapeValue(nodes: nodes, bytes: value, index: 0), key: key)
        }
    }

    static func profile<Value: JSONValueView>(_ root: Value, key: String?) -> Result<Outcome, Rejection> {
        guard root.kind == .object else { return .failure(Rejection(.malformedJSON, "profile is not a JSON object")) }
        let named = root.presentMember("person").flatMap { $0.kind == .string ? $0.stringValue : nil }
        guard let person = key ?? named else {
            return .failure(Rejection(.missingField, "profile has neither a key nor a 'person'"))
        }
        func positive(_ name: StaticString) -> Double? {
            guard let field = root.presentMember(name), field.isNumber, let value = field.doubleValue,
                value.isFinite, value > 0
            else { return nil }
            return value
        }
        let preferred = ZonesReader.read(root.member("preferred"), source: .user)
        return .success(
            .upsert(
                PersonProfile(
                    person: person, age: positive("age"), restingHeartRate: positive("resting_hr"),
                    maximumHeartRate: positive("max_hr"), functionalThresholdPower: positive("ftp"),
                    preferredZones: preferred.zones)))
    }
}

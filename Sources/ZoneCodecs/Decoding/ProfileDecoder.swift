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
        let weight = positive("weight_kg").flatMap { (20...400).contains($0) ? $0 : nil }
        let sex = root.presentMember("sex").flatMap { field -> PersonProfile.Sex? in
            if field.stringEquals("female") { return .female }
            if field.stringEquals("male") { return .male }
            return nil
        }
        return .success(
            .upsert(
                PersonProfile(
                    person: person, name: displayName(root.presentMember("name")), age: positive("age"),
                    restingHeartRate: positive("resting_hr"), maximumHeartRate: positive("max_hr"),
                    functionalThresholdPower: positive("ftp"), weightKg: weight, sex: sex,
                    preferredZones: preferred.zones)))
    }

    /// The longest display name a profile may carry, in UTF-8 bytes.
    static let maximumNameBytes = 64

    /// `name` when it is a string of 1 to 64 UTF-8 bytes; nil otherwise (ignored).
    static func displayName<Value: JSONValueView>(_ field: Value?) -> String? {
        guard let field, field.kind == .string else { return nil }
        let bytes = field.stringByteCount
        guard bytes >= 1, bytes <= maximumNameBytes else { return nil }
        return field.stringValue
    }
}

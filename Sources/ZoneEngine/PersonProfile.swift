/// A person's entry on the `zone-profiles` topic, already cleaned by the decoder:
/// fields that were invalid are `nil`, so the next zone source applies (and an effort
/// figure that needs them is left out).
public struct PersonProfile: Sendable, Equatable {
    /// The sex that selects Keytel's calorie formula.
    public enum Sex: String, Sendable {
        case female
        case male
    }

    public var person: String
    /// A display name for live views and boards; never written to a topic.
    public var name: String?
    public var age: Double?
    public var restingHeartRate: Double?
    public var maximumHeartRate: Double?
    public var functionalThresholdPower: Double?
    /// Body weight in kilograms (20 to 400), for calories.
    public var weightKg: Double?
    public var sex: Sex?
    /// Valid preferred zones per quantity (source `user`).
    public var preferredZones: PerQuantity<ZoneConfiguration?>

    public init(
        person: String, name: String? = nil, age: Double? = nil, restingHeartRate: Double? = nil,
        maximumHeartRate: Double? = nil, functionalThresholdPower: Double? = nil, weightKg: Double? = nil,
        sex: Sex? = nil, preferredZones: PerQuantity<ZoneConfiguration?> = PerQuantity(repeating: nil)
    ) {
        self.person = person
        self.name = name
        self.age = age
        self.restingHeartRate = restingHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.functionalThresholdPower = functionalThresholdPower
        self.weightKg = weightKg
        self.sex = sex
        self.preferredZones = preferredZones
    }
}

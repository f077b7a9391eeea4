/// A person's entry on the `zone-profiles` topic, already cleaned by the decoder:
/// fields that were invalid are `nil`, so the next zone source applies.
public struct PersonProfile: Sendable, Equatable {
    public var person: String
    public var age: Double?
    public var restingHeartRate: Double?
    public var maximumHeartRate: Double?
    public var functionalThresholdPower: Double?
    /// Valid preferred zones per quantity (source `user`).
    public var preferredZones: PerQuantity<ZoneConfiguration?>

    public init(
        person: String, age: Double? = nil, restingHeartRate: Double? = nil, maximumHeartRate: Double? = nil,
        functionalThresholdPower: Double? = nil,
        preferredZones: PerQuantity<ZoneConfiguration?> = PerQuantity(repeating: nil)
    ) {
        self.person = person
        self.age = age
        self.restingHeartRate = restingHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.functionalThresholdPower = functionalThresholdPower
        self.preferredZones = preferredZones
    }
}

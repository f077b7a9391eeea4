import NIOConcurrencyHelpers
public import ZoneEngine

/// The `zone-profiles` topic as a table, read whole by every instance. Written by the
/// profile reader thread, read by workers only when a session starts (never per sample).
/// Bounded: past `limit` persons a new person's profile is refused (an update of a person
/// already held is always taken), so a flood of ids cannot exhaust memory.
///
/// Every instance holds every person, so a person's entry is kept small (``StoredProfile``):
/// the person id only as the key, absent figures as NaN rather than optionals, and preferred
/// zones (two fixed-size configurations, rare in practice) out of line and only when given.
public final class ProfileTable: Sendable {
    private let profiles = NIOLockedValueBox<[String: StoredProfile]>([:])
    /// The most persons held (`max_profiles`).
    public let limit: Int

    public init(limit: Int = ProcessorConfiguration.defaults.maxProfiles) {
        self.limit = limit
    }

    public func profile(for person: String) -> PersonProfile? {
        profiles.withLockedValue { $0[person] }.map { $0.profile(person: person) }
    }

    /// Takes the profile; false when it is a new person and the table is full.
    @discardableResult
    public func upsert(_ profile: PersonProfile) -> Bool {
        let stored = StoredProfile(profile)
        return profiles.withLockedValue { table in
            guard table[profile.person] != nil || table.count < limit else { return false }
            table[profile.person] = stored
            return true
        }
    }

    public func delete(_ person: String) { _ = profiles.withLockedValue { $0.removeValue(forKey: person) } }

    public var count: Int { profiles.withLockedValue { $0.count } }
}

/// A profile as the table keeps it: 72 bytes beside its key, where a ``PersonProfile`` takes
/// over 200 (its preferred zones alone are two inline optional configurations of 73 bytes).
/// About 350 bytes a person in all (benchmarks/results/profile-memory.json).
struct StoredProfile: Sendable {
    /// Preferred zones, boxed: most persons have none, and then the entry holds no box.
    final class PreferredZones: Sendable {
        let zones: PerQuantity<ZoneConfiguration?>
        init(_ zones: PerQuantity<ZoneConfiguration?>) { self.zones = zones }
    }

    let name: String?
    /// NaN where the profile has no figure: the decoder passes only finite values.
    let age: Double
    let restingHeartRate: Double
    let maximumHeartRate: Double
    let functionalThresholdPower: Double
    let weightKg: Double
    let sex: PersonProfile.Sex?
    let preferredZones: PreferredZones?

    init(_ profile: PersonProfile) {
        name = profile.name
        age = profile.age ?? .nan
        restingHeartRate = profile.restingHeartRate ?? .nan
        maximumHeartRate = profile.maximumHeartRate ?? .nan
        functionalThresholdPower = profile.functionalThresholdPower ?? .nan
        weightKg = profile.weightKg ?? .nan
        sex = profile.sex
        let zones = profile.preferredZones
        preferredZones = zones.heartRate == nil && zones.cyclingPower == nil ? nil : PreferredZones(zones)
    }

    func profile(person: String) -> PersonProfile {
        func figure(_ value: Double) -> Double? { value.isNaN ? nil : value }
        return PersonProfile(
            person: person, name: name, age: figure(age), restingHeartRate: figure(restingHeartRate),
            maximumHeartRate: figure(maximumHeartRate), functionalThresholdPower: figure(functionalThresholdPower),
            weightKg: figure(weightKg), sex: sex,
            preferredZones: preferredZones?.zones ?? PerQuantity(repeating: nil))
    }
}

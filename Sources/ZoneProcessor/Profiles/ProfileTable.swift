import NIOConcurrencyHelpers
public import ZoneEngine

/// The `zone-profiles` topic as a table, read whole by every instance. Written by the
/// profile reader thread, read by workers only when a session starts (never per sample).
/// Bounded: past `limit` persons a new person's profile is refused (an update of a person
/// already held is always taken), so a flood of ids cannot exhaust memory.
public final class ProfileTable: Sendable {
    private let profiles = NIOLockedValueBox<[String: PersonProfile]>([:])
    /// The most persons held (`max_profiles`).
    public let limit: Int

    public init(limit: Int = ProcessorConfiguration.defaults.maxProfiles) {
        self.limit = limit
    }

    public func profile(for person: String) -> PersonProfile? { profiles.withLockedValue { $0[person] } }

    /// Takes the profile; false when it is a new person and the table is full.
    @discardableResult
    public func upsert(_ profile: PersonProfile) -> Bool {
        profiles.withLockedValue { table in
            guard table[profile.person] != nil || table.count < limit else { return false }
            table[profile.person] = profile
            return true
        }
    }

    public func delete(_ person: String) { _ = profiles.withLockedValue { $0.removeValue(forKey: person) } }

    public var count: Int { profiles.withLockedValue { $0.count } }
}

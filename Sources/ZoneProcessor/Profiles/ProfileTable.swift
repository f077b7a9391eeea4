import NIOConcurrencyHelpers
public import ZoneEngine

/// The `zone-profiles` topic as a table, read whole by every instance. Written by the
/// profile reader thread, read by workers only when a session starts (never per sample).
public final class ProfileTable: Sendable {
    private let profiles = NIOLockedValueBox<[String: PersonProfile]>([:])

    public init() {}

    public func profile(for person: String) -> PersonProfile? { profiles.withLockedValue { $0[person] } }

    public func upsert(_ profile: PersonProfile) { profiles.withLockedValue { $0[profile.person] = profile } }

    public func delete(_ person: String) { _ = profiles.withLockedValue { $0.removeValue(forKey: person) } }

    public var count: Int { profiles.withLockedValue { $0.count } }
}

/// Chooses a session's zones per quantity, first match wins (docs/reference/contract.md):
/// app zones from `session_start`, the person's preferred zones, system zones from
/// the person's metrics, and for heart rate the default boundaries.
public enum ZoneResolver {
    public static func resolve(
        _ quantity: Quantity, appZones: ZoneConfiguration?, profile: PersonProfile?
    ) -> ZoneConfiguration? {
        if let appZones { return appZones }
        if let preferred = profile?.preferredZones[quantity] { return preferred }
        switch quantity {
        case .heartRate: return SystemZones.heartRate(for: profile)
        case .cyclingPower: return SystemZones.cyclingPower(for: profile)
        }
    }
}

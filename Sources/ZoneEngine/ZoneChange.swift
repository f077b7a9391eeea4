/// A zone change of one quantity, produced by an accepted sample.
///
/// Zones are 0-based here; encoders add 1. A value type of fixed size, so
/// producing one allocates nothing.
public struct ZoneChange: Sendable, Equatable {
    public let quantity: Quantity
    /// The sample's time (with damping: the sample at which the zone qualified).
    public let timestamp: Int64
    /// The zone of the last published event, `nil` for the first.
    public let previousZone: Int?
    public let currentZone: Int
    /// Durations per zone credited up to `timestamp`.
    public let durations: ZoneDurations

    public init(quantity: Quantity, timestamp: Int64, previousZone: Int?, currentZone: Int, durations: ZoneDurations) {
        self.quantity = quantity
        self.timestamp = timestamp
        self.previousZone = previousZone
        self.currentZone = currentZone
        self.durations = durations
    }
}

/// What became of one sample.
public enum SampleOutcome: Sendable, Equatable {
    /// Accepted, with the zone change it produced, if any.
    case accepted(ZoneChange?)
    /// Accepted, and it also changed its plan's target state (the change is read from the
    /// session). A case of its own rather than a flag beside the zone change: the flag made
    /// every sample's outcome larger to move.
    case acceptedChangingTarget(ZoneChange?)
    case late
    case duplicate
    case paused
}

extension SampleOutcome {
    /// Whether the sample was accepted.
    var isAccepted: Bool {
        switch self {
        case .accepted, .acceptedChangingTarget: true
        case .late, .duplicate, .paused: false
        }
    }
}

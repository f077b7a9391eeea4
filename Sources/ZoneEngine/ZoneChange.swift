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
    /// Accepted, with what it published: a zone change, read with
    /// ``WorkoutSession/publishedZoneChange(_:at:)``, and a target change. Flags rather than the
    /// changes: every sample's outcome is returned through the per-sample path, and a zone
    /// change carried in it made each outcome 113 bytes to move and copied each change once more.
    case accepted(SampleChanges)
    case late
    case duplicate
    case paused
}

/// What an accepted sample published.
public struct SampleChanges: OptionSet, Sendable, Equatable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A zone-change event (the quantity has zones and its zone changed, after any damping).
    public static let zone = SampleChanges(rawValue: 1)
    /// A target change (the session follows a plan that targets the quantity).
    public static let target = SampleChanges(rawValue: 2)
}

extension SampleOutcome {
    /// Whether the sample was accepted.
    var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }
}

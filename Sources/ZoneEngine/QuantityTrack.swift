/// One quantity's counters inside a session: the hot path's whole working set.
///
/// Plain stored integers and inline arrays only, so applying a sample allocates nothing.
struct QuantityTrack: Sendable {
    let quantity: Quantity
    var configuration: ZoneConfiguration?
    var durations = ZoneDurations()
    var normalizedDurations = ZoneDurations()
    /// Time covered by samples, zones or not; the rest of the active span is untracked.
    var coveredMs: Int64 = 0

    var acceptedSamples = 0
    var lastTimestamp: Int64 = 0
    var lastValue: Double = 0
    /// Zone of the last accepted sample, -1 when there are no zones.
    var lastZone = -1
    /// Whether the last accepted sample's coverage is still open (credited when the next
    /// accepted sample arrives or the session ends).
    var coverageOpen = false

    var minimum = Double.infinity
    var maximum = -Double.infinity
    var sum: Double = 0

    /// The zone of the last published zone-change event, -1 before the first.
    var publishedZone = -1
    /// Damping: the zone of the current run of samples and when that run began.
    var runZone = -1
    var runStart: Int64 = 0

    init(_ quantity: Quantity, configuration: ZoneConfiguration?) {
        self.quantity = quantity
        self.configuration = configuration
    }

    var hasSamples: Bool { acceptedSamples > 0 }
}

/// One quantity's counters inside a session: the hot path's whole working set.
///
/// Plain stored integers and inline arrays, so applying a sample allocates nothing (with a
/// normalization model, the first credit puts the normalized durations on the heap, once).
///
/// The small fields follow the configuration so they fill its padding, zones are kept in a
/// byte each (there are at most nine), and normalized durations are on the heap: a track went
/// from 336 to 224 bytes, and a session, mostly its two tracks, from 792 to 584.
struct QuantityTrack: Sendable {
    var configuration: ZoneConfiguration?
    let quantity: Quantity
    /// Whether the last accepted sample's coverage is still open (credited when the next
    /// accepted sample arrives or the session ends).
    var coverageOpen = false
    private var lastZoneByte: Int8 = -1
    private var publishedZoneByte: Int8 = -1
    private var runZoneByte: Int8 = -1
    private var previousPublishedZoneByte: Int8 = -1
    var durations = ZoneDurations()
    /// Durations per normalized zone (docs/reference/contract.md), on the heap and only once a
    /// normalization model credits something: off by default, and 72 bytes per track inline.
    private var normalized: NormalizedDurations?
    /// Time covered by samples, zones or not; the rest of the active span is untracked.
    var coveredMs: Int64 = 0
    /// Value times covered milliseconds, summed: the work done, for power's kilojoules.
    var valueMs: Double = 0
    /// Heart-rate effort (bands, calories); nil without a known maximum, and for power.
    var heartRateEffort: HeartRateEffort?

    var acceptedSamples = 0
    var lastTimestamp: Int64 = 0
    var lastValue: Double = 0
    /// Zone of the last accepted sample, -1 when there are no zones.
    var lastZone: Int {
        get { Int(lastZoneByte) }
        set { lastZoneByte = Int8(truncatingIfNeeded: newValue) }
    }

    var minimum = Double.infinity
    var maximum = -Double.infinity
    var sum: Double = 0

    /// The zone of the last published zone-change event, -1 before the first.
    var publishedZone: Int {
        get { Int(publishedZoneByte) }
        set { publishedZoneByte = Int8(truncatingIfNeeded: newValue) }
    }
    /// The zone published before the last zone change, -1 before the second.
    var previousPublishedZone: Int {
        get { Int(previousPublishedZoneByte) }
        set { previousPublishedZoneByte = Int8(truncatingIfNeeded: newValue) }
    }
    /// Damping: the zone of the current run of samples and when that run began.
    var runZone: Int {
        get { Int(runZoneByte) }
        set { runZoneByte = Int8(truncatingIfNeeded: newValue) }
    }
    var runStart: Int64 = 0
    /// Progress against the session's plan; nil without a plan that targets the quantity.
    /// Last, after the fields every sample touches: a sample reads only its first 32 bytes
    /// when the member keeps their target state.
    var target: TargetTrack?

    init(_ quantity: Quantity, configuration: ZoneConfiguration?) {
        self.quantity = quantity
        self.configuration = configuration
    }

    var hasSamples: Bool { acceptedSamples > 0 }

    /// Durations per normalized zone; all zero until the first credit.
    var normalizedDurations: ZoneDurations {
        get { normalized?.durations ?? ZoneDurations() }
        set { normalized = newValue == ZoneDurations() ? nil : NormalizedDurations(newValue) }
    }

    /// An accepted sample that may change the target state (``TargetTrack/keepsState(_:at:)``
    /// was false): whether it publishes a target change. The zones are read only for a sample
    /// that moves to another step (a call that takes them copies them).
    @inline(never)
    mutating func observeTarget(value: Double, at timestamp: Int64, dwellMs: Int64) -> Bool {
        if target?.isPastCachedStep(timestamp) == true { target?.moveState(to: timestamp, zones: configuration) }
        return target?.observe(value: value, at: timestamp, dwellMs: dwellMs, covered: coveredMs) ?? false
    }

    /// Credits `length` to normalized zone `zone`, copying the durations first when another
    /// copy of the session shares them (copy on write).
    mutating func creditNormalized(zone: Int, _ length: Int64) {
        if !isKnownUniquelyReferenced(&normalized) { normalized = NormalizedDurations(normalizedDurations) }
        normalized?.durations[zone] += length
    }
}

/// A track's normalized-zone durations on the heap.
// @unchecked: mutated only through `QuantityTrack.creditNormalized`, after
// `isKnownUniquelyReferenced` says no other copy shares it, so it is never mutated while shared.
final class NormalizedDurations: @unchecked Sendable {
    var durations: ZoneDurations

    init(_ durations: ZoneDurations) {
        self.durations = durations
    }
}

/// A session's two tracks: heart rate inline, cycling power on the heap once it is used.
///
/// Every wearer sends heart rate; only riders on a bike with a power meter (or a profile with
/// an FTP, which gives power zones) ever use the power track. Held inline, an unused power
/// track was 224 of a session's 584 bytes, and a session is held for as long as it lasts, so
/// it was memory per live session. Here it takes one pointer until it has zones
/// or a sample; from then on it is a copy-on-write box of its own (one allocation per
/// session, never per sample).
struct SessionTracks: Sendable {
    var heartRate: QuantityTrack
    /// nil while the power track is unused (``QuantityTrack/isUnused``).
    private var power: TrackStorage?

    init(heartRate: QuantityTrack, cyclingPower: QuantityTrack) {
        self.heartRate = heartRate
        power = cyclingPower.isUnused ? nil : TrackStorage(cyclingPower)
    }

    var cyclingPower: QuantityTrack {
        get { power?.track ?? Self.unusedPower }
        _modify {
            // Kept small: a large local (a scratch track, or the track read back) makes the
            // accessor's frame too big for the caller's buffer, and Swift then puts the frame
            // on the heap at every call. The per-sample path uses ``powerStorage()`` instead.
            let storage = powerStorage()
            yield &storage.track
            dropPowerIfUnused()
        }
    }

    /// The power track's box, made or copied first when it is missing or shared (copy on
    /// write: a copy of the session, for the changelog or live views, shares it). The one way
    /// the per-sample path writes the power track: a plain call, no accessor frame.
    @inline(__always)
    mutating func powerStorage() -> TrackStorage {
        if power == nil {
            power = TrackStorage(Self.unusedPower)
        } else if !isKnownUniquelyReferenced(&power) {
            power = power.map { TrackStorage($0.track) }
        }
        // Non-nil: set above.
        return power.unsafelyUnwrapped
    }

    /// Drops the box when a change left the track unused (a control event setting no zones,
    /// or a rejected first sample, on a session without power).
    @inline(never)
    mutating func dropPowerIfUnused() {
        if let power, power.track.isUnused { self.power = nil }
    }

    /// The zones in use for `quantity`, read without copying the track out of its box.
    func configuration(for quantity: Quantity) -> ZoneConfiguration? {
        switch quantity {
        case .heartRate: heartRate.configuration
        case .cyclingPower: power?.track.configuration
        }
    }

    /// The zone change the latest sample of `quantity` published, read in place; nil for an
    /// unused power track, which has published none.
    @inline(__always)
    func publishedZoneChange(_ quantity: Quantity, at timestamp: Int64) -> ZoneChange? {
        switch quantity {
        case .heartRate: heartRate.publishedZoneChange(at: timestamp)
        case .cyclingPower: power?.track.publishedZoneChange(at: timestamp)
        }
    }

    /// The target change the latest sample of `quantity` published, read in place (inlined
    /// down to the track's fields: a call copies the tracks first).
    @inline(__always)
    func publishedTargetChange(_ quantity: Quantity, of plan: WorkoutPlan, at timestamp: Int64, value: Double)
        -> TargetChange?
    {
        switch quantity {
        case .heartRate: heartRate.target?.publishedChange(quantity, of: plan, at: timestamp, value: value)
        case .cyclingPower: power?.track.target?.publishedChange(quantity, of: plan, at: timestamp, value: value)
        }
    }

    subscript(quantity: Quantity) -> QuantityTrack {
        get {
            switch quantity {
            case .heartRate: heartRate
            case .cyclingPower: cyclingPower
            }
        }
        _modify {
            switch quantity {
            case .heartRate: yield &heartRate
            case .cyclingPower: yield &cyclingPower
            }
        }
    }

    /// Whether the power track is on the heap (for the layout tests).
    var holdsPowerTrack: Bool { power != nil }

    private static let unusedPower = QuantityTrack(.cyclingPower, configuration: nil)
}

/// A power track on the heap.
// @unchecked: written only through `SessionTracks.powerStorage()` (and the `cyclingPower`
// accessor built on it), which copies it first unless `isKnownUniquelyReferenced` says no
// other copy of the session shares it, so it is never written while shared.
// `@exclusivity(unchecked)`: those are its only writers, each the session's one mutable path,
// and the dynamic check on a class property would cost every power sample a runtime call.
final class TrackStorage: @unchecked Sendable {
    @exclusivity(unchecked) var track: QuantityTrack

    init(_ track: QuantityTrack) {
        self.track = track
    }
}

extension QuantityTrack {
    /// Whether the track is as a session without zones or samples for it has it: it holds
    /// nothing a reader could tell from a fresh track (no zones, no accepted sample, and so no
    /// coverage, durations, statistics or zone history).
    var isUnused: Bool {
        configuration == nil && acceptedSamples == 0 && coveredMs == 0 && heartRateEffort == nil && target == nil
    }
}

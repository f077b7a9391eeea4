/// A session's two tracks: heart rate inline, cycling power on the heap once it is used.
///
/// Every wearer sends heart rate; only riders on a bike with a power meter (or a profile with
/// an FTP, which gives power zones) ever use the power track. Held inline, an unused power
/// track was 224 of a session's 584 bytes, and a session is held for as long as it lasts, so
/// it was memory per live session (session 17). Here it takes one pointer until it has zones
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
            if power == nil {
                // Changed in a scratch copy; kept only if the change used it (a control event
                // setting no zones on a session without power leaves nothing on the heap).
                var track = Self.unusedPower
                yield &track
                if !track.isUnused { power = TrackStorage(track) }
            } else {
                // Copy on write: a copy of the session (changelog, live views) shares the box.
                if !isKnownUniquelyReferenced(&power) { power = power.map { TrackStorage($0.track) } }
                // Non-nil: checked above, and the copy keeps it so.
                yield &power.unsafelyUnwrapped.track
            }
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
// @unchecked: written only through `SessionTracks.cyclingPower`'s modify accessor, after
// `isKnownUniquelyReferenced` says no other copy of the session shares it, so it is never
// written while shared. `@exclusivity(unchecked)`: that accessor is the one writer, and the
// dynamic check on a class property cost every power sample a call.
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
    var isUnused: Bool { configuration == nil && acceptedSamples == 0 && coveredMs == 0 }
}

import Testing

@testable import ZoneEngine

/// A live session is held per session for as long as it lasts, so its size is memory per live
/// session: the tracks' small fields fill the configuration's padding, zones are bytes, and
/// normalized durations are on the heap only when a normalization model credits them, and the
/// power track only once it has zones or a sample. Effort costs a track 128 bytes: the work
/// sum, and the heart-rate effort (six band durations, the calorie sums, the shared parameters
/// and the copy of their floors the per-sample path reads). The target state a sample reads and
/// writes with a plan is inline in each track (96 bytes, there with or without a plan, last, so
/// that a sample that keeps its target state reads only its first 32 bytes, beside the fields
/// every sample touches), so a planned sample needs no object of its own; the plan's steps and
/// counts are on the heap. The session's id, person and class are one shared object
/// (``SessionIdentity``), a reference where three strings took 48 bytes.
@Suite struct SessionLayoutTests {
    @Test func aSessionStaysSmall() {
        #expect(MemoryLayout<ZoneConfiguration?>.size <= 74)
        #expect(MemoryLayout<HeartRateEffort?>.stride <= 120)
        #expect(MemoryLayout<TargetTrack?>.size <= 96)
        #expect(MemoryLayout<QuantityTrack>.stride <= 448)
        #expect(MemoryLayout<WorkoutSession>.stride <= 576)
        #expect(MemoryLayout<QuantityTrack>.offset(of: \QuantityTrack.target) == 352)
    }

    /// Every sample's call takes the settings by value: the normalization models are on the
    /// heap, read back as they were set, and none set is none kept.
    @Test func theSettingsEachSampleTakesStaySmall() throws {
        #expect(MemoryLayout<EngineSettings>.size <= 56)
        var settings = EngineSettings()
        #expect(!settings.normalizesAnyQuantity)
        let model = try ZoneConfiguration.validated(
            quantity: .heartRate, source: .normalized, boundaries: [100, 120, 140])
        settings.normalization = PerQuantity(heartRate: model, cyclingPower: nil)
        #expect(settings.normalizesAnyQuantity)
        #expect(settings.normalization[.heartRate] == model && settings.normalization[.cyclingPower] == nil)
        #expect(settings.normalizationModel(for: .heartRate) == model)
        settings.normalization = PerQuantity(repeating: nil)
        #expect(!settings.normalizesAnyQuantity && settings.normalizationModel(for: .heartRate) == nil)
    }

    /// A live view is kept per live session on every instance with the endpoint on (and per
    /// session of the other instances of its group): its effort sums leave out the floors the
    /// per-sample path compares with, and no field pads the next; the resting rate and FTP a
    /// board's headline is a share of take 32 bits each.
    @Test func aLiveViewStaysSmall() {
        #expect(MemoryLayout<HeartRateEffort.Credited>.size <= 72)
        #expect(MemoryLayout<LiveSessionState.ZoneGroup>.stride <= 176)
        #expect(MemoryLayout<LiveSessionState>.size <= 266)
    }

    /// A heart-rate-only session keeps no power track; the first power sample makes one, and
    /// from then on it counts as before.
    @Test func thePowerTrackIsOnTheHeapOnlyOnceUsed() {
        let settings = EngineSettings()
        var session = WorkoutSession(id: "s", startTimestamp: 0, person: nil, activity: nil, profile: nil)
        #expect(!session.tracks.holdsPowerTrack)
        _ = session.applySample(.heartRate, at: 0, value: 120, settings: settings)
        _ = session.applySample(.heartRate, at: 1_000, value: 125, settings: settings)
        _ = session.liveState(profile: nil)
        #expect(!session.tracks.holdsPowerTrack)
        #expect(session.tracks.cyclingPower.isUnused)

        _ = session.applySample(.cyclingPower, at: 1_000, value: 200, settings: settings)
        _ = session.applySample(.cyclingPower, at: 3_000, value: 210, settings: settings)
        #expect(session.tracks.holdsPowerTrack)
        #expect(session.tracks.cyclingPower.acceptedSamples == 2)
        #expect(session.tracks.cyclingPower.coveredMs == 2_000)
        #expect(session.tracks.cyclingPower.maximum == 210)
        #expect(session.tracks.heartRate.acceptedSamples == 2)
    }

    /// Power zones (from an FTP) are a used track from the start: they are the session's.
    @Test func powerZonesKeepThePowerTrackFromTheStart() {
        let rider = PersonProfile(person: "p", functionalThresholdPower: 250)
        let session = WorkoutSession(id: "s", startTimestamp: 0, person: "p", activity: nil, profile: rider)
        #expect(session.tracks.holdsPowerTrack)
        #expect(session.configuration(for: .cyclingPower) != nil)
    }

    /// Copies of a session (changelog, live views) share its power track until the live one
    /// changes: the copy must not move with it.
    @Test func aCopysPowerTrackDoesNotMoveWithTheLiveSession() {
        let settings = EngineSettings()
        var session = WorkoutSession(id: "s", startTimestamp: 0, person: nil, activity: nil, profile: nil)
        _ = session.applySample(.cyclingPower, at: 0, value: 200, settings: settings)
        let copy = session
        _ = session.applySample(.cyclingPower, at: 1_000, value: 300, settings: settings)
        #expect(copy.tracks.cyclingPower.acceptedSamples == 1)
        #expect(copy.tracks.cyclingPower.maximum == 200)
        #expect(session.tracks.cyclingPower.acceptedSamples == 2)
        #expect(session.tracks.cyclingPower.maximum == 300)
    }

    @Test func zonesReadBackAsTheyWereSet() {
        var track = QuantityTrack(.heartRate, configuration: nil)
        #expect(track.lastZone == -1 && track.publishedZone == -1 && track.runZone == -1)
        track.lastZone = 8
        track.publishedZone = 0
        track.runZone = 4
        #expect(track.lastZone == 8 && track.publishedZone == 0 && track.runZone == 4)
    }

    /// The store hands out copies of sessions (for the changelog and live views) while the
    /// live one goes on: a copy's normalized durations must not move with it.
    @Test func aCopysNormalizedDurationsDoNotMoveWithTheLiveSession() throws {
        var settings = EngineSettings()
        settings.normalization.heartRate = try ZoneConfiguration.validated(
            quantity: .heartRate, source: .normalized, boundaries: [110, 130])
        var session = WorkoutSession(id: "s", startTimestamp: 0, person: nil, activity: nil, profile: nil)
        _ = session.applySample(.heartRate, at: 0, value: 100, settings: settings)
        _ = session.applySample(.heartRate, at: 2_000, value: 120, settings: settings)
        let copy = session
        _ = session.applySample(.heartRate, at: 5_000, value: 140, settings: settings)
        #expect(copy.tracks.heartRate.normalizedDurations[0] == 2_000)
        #expect(copy.tracks.heartRate.normalizedDurations[1] == 0)
        #expect(session.tracks.heartRate.normalizedDurations[0] == 2_000)
        #expect(session.tracks.heartRate.normalizedDurations[1] == 3_000)
        // Without a model nothing is credited, and nothing is on the heap.
        var plain = WorkoutSession(id: "p", startTimestamp: 0, person: nil, activity: nil, profile: nil)
        _ = plain.applySample(.heartRate, at: 0, value: 100, settings: EngineSettings())
        _ = plain.applySample(.heartRate, at: 2_000, value: 120, settings: EngineSettings())
        #expect(plain.tracks.heartRate.normalizedDurations == ZoneDurations())
    }
}

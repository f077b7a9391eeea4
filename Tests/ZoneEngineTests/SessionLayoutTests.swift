import Testing
@testable import ZoneEngine

/// A live session is held per session for as long as it lasts, so its size is memory per live
/// session: the tracks' small fields fill the configuration's padding, zones are bytes, and
/// normalized durations are on the heap only when a normalization model credits them.
@Suite struct SessionLayoutTests {
    @Test func aSessionStaysSmall() {
        #expect(MemoryLayout<ZoneConfiguration?>.size <= 74)
        #expect(MemoryLayout<QuantityTrack>.stride <= 224)
        #expect(MemoryLayout<WorkoutSession>.stride <= 584)
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

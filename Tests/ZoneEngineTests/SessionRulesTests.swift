import Testing
import ZoneEngine
import ZoneTestSupport

/// Session rules of docs/reference/contract.md.
@Suite struct SessionRulesTests {
    static func zones(_ quantity: Quantity, _ boundaries: [Double]) -> PerQuantity<ZoneConfiguration?> {
        var zones = PerQuantity<ZoneConfiguration?>(repeating: nil)
        zones[quantity] = try? ZoneConfiguration.validated(quantity: quantity, source: .app, boundaries: boundaries)
        return zones
    }

    @Test func firstEventStartsASessionImplicitlyWithItsPerson() throws {
        var h = EngineHarness()
        h.profiles["maria"] = PersonProfile(person: "maria", age: 38)
        h.send(.sample(.heartRate, value: 120, person: "maria"), at: 3)
        let session = try #require(h.live)
        #expect(session.startTimestamp == EngineHarness.ms(3))
        #expect(session.person == "maria")
        #expect(session.activity == "other")
        #expect(session.configuration(for: .heartRate)?.boundaries.values == [109, 127, 145, 163])
    }

    @Test func aProfileThatChangesLaterDoesNotChangeARunningSession() {
        var h = EngineHarness()
        h.profiles["p"] = PersonProfile(person: "p", maximumHeartRate: 200, functionalThresholdPower: 200)
        h.start(person: "p")
        h.profiles["p"] = PersonProfile(person: "p", maximumHeartRate: 150, functionalThresholdPower: 300)
        h.hr(120, at: 1)
        h.power(150, at: 1)
        #expect(h.live?.configuration(for: .heartRate)?.boundaries.values == [120, 140, 160, 180])
        #expect(h.live?.configuration(for: .cyclingPower)?.boundaries.values == [110, 150, 180, 210, 240])
        // A new session of the same person reads the new profile.
        h.send(.sessionStart(SessionStartRequest(person: "p")), at: 0, session: "s2")
        #expect(h.store.session("s2")?.configuration(for: .heartRate)?.boundaries.values == [90, 105, 120, 135])
    }

    @Test func aSamplesPersonMattersOnlyWhenItStartsTheSession() {
        var h = EngineHarness()
        h.send(.sample(.heartRate, value: 120, person: nil), at: 0)
        h.send(.sample(.heartRate, value: 120, person: "late-person"), at: 1)
        #expect(h.live?.person == nil)
    }

    @Test func pauseAsFirstEventStartsAPausedSession() throws {
        var h = EngineHarness()
        h.send(.pause, at: 0)
        #expect(h.live?.isPaused == true)
        let summary = try #require({ h.end(at: 4) }())
        #expect(summary.pausedMs == 4000)
    }

    @Test func deadLetteredFirstEventStartsNothing() {
        var h = EngineHarness()
        h.send(.resume, at: 0)
        h.send(.activityEnd, at: 0)
        #expect(h.live == nil)
        #expect(h.rejectionReasons == [.invalidTransition, .invalidTransition])
    }

    @Test func controlEventsMustNotGoBackInTime() {
        var h = EngineHarness()
        h.start(at: 0)
        h.hr(100, at: 5)
        h.send(.pause, at: 4)  // before the sample's time
        h.send(.activityStart("x"), at: 4.999)
        h.send(.sessionEnd, at: 1)
        #expect(h.rejectionReasons == [.invalidTransition, .invalidTransition, .invalidTransition])
        h.send(.pause, at: 5)  // equal to the latest time: fine
        #expect(h.rejectionReasons.count == 3)
        #expect(h.live?.isPaused == true)
    }

    @Test func aSessionHasAtMostOneHundredActivities() throws {
        var h = EngineHarness()
        h.start()
        for leg in 1...101 { h.send(.activityStart("leg-\(leg)"), atMs: EngineHarness.origin + Int64(leg)) }
        #expect(h.rejectionReasons == [.invalidTransition], "the 101st start is refused")
        h.send(.activityEnd, atMs: EngineHarness.origin + 200)
        h.send(.activityStart("again"), atMs: EngineHarness.origin + 300)
        #expect(h.rejectionReasons == [.invalidTransition, .invalidTransition], "ended ones count too")
        let summary = try #require({ h.end(at: 1) }())
        #expect(summary.activities.count == 100)
        #expect(summary.activities.last?.name == "leg-100")
    }

    @Test func controlEventsMustMakeSense() {
        var h = EngineHarness()
        h.start()
        h.send(.resume, at: 1)
        h.send(.activityEnd, at: 1)
        h.send(.pause, at: 2)
        h.send(.pause, at: 3)
        #expect(h.rejectionReasons == [.invalidTransition, .invalidTransition, .invalidTransition])
    }

    @Test func rejectedControlEventChangesNothing() throws {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 0)
        h.send(.resume, at: 1)
        let summary = try #require({ h.end(at: 2) }())
        #expect(summary.pausedMs == 0)
        #expect(summary.durations(.heartRate) == [0, 2000, 0, 0, 0])
    }

    @Test func sessionStartForALiveSessionUpdatesZonesOnlyBeforeCollection() throws {
        var h = EngineHarness()
        h.hr(100, at: 0)  // implicit start with default zones
        var both = Self.zones(.heartRate, [100, 150])
        both.cyclingPower = try ZoneConfiguration.validated(
            quantity: .cyclingPower, source: .app, boundaries: [100, 200])
        h.send(.sessionStart(SessionStartRequest(person: "p", activity: "cycling", zones: both)), at: 1)
        #expect(h.rejectionReasons == [.zonesAfterCollectionBegan])
        let session = try #require(h.live)
        #expect(session.configuration(for: .heartRate)?.source == .system)
        #expect(session.configuration(for: .cyclingPower)?.source == .app)
        #expect(session.person == "p")
        #expect(session.activity == "cycling")
        #expect(session.startTimestamp == EngineHarness.ms(0), "start time does not change")
    }

    @Test func sessionStartFillsOnlyUnsetPersonAndActivity() {
        var h = EngineHarness()
        h.start(person: "a", activity: "running")
        h.send(.sessionStart(SessionStartRequest(person: "b", activity: "cycling")), at: 1)
        #expect(h.live?.person == "a")
        #expect(h.live?.activity == "running")
        #expect(h.rejectionReasons.isEmpty)
    }

    @Test func sessionStartSettingThePersonResolvesZonesOfUncollectedQuantities() {
        var h = EngineHarness()
        h.profiles["p"] = PersonProfile(person: "p", maximumHeartRate: 200, functionalThresholdPower: 250)
        h.hr(100, at: 0)
        h.send(.sessionStart(SessionStartRequest(person: "p")), at: 1)
        #expect(h.live?.configuration(for: .heartRate)?.boundaries.values == [91, 114, 136, 158])
        #expect(h.live?.configuration(for: .cyclingPower)?.boundaries.values == [138, 188, 225, 263, 300])
    }

    @Test func invalidZonesStillApplyTheSessionStart() {
        var h = EngineHarness()
        h.send(.sessionStart(SessionStartRequest(person: "p", zonesDefect: "heart_rate: 1 boundary")), at: 0)
        #expect(h.live?.person == "p")
        #expect(h.rejectionReasons == [.invalidZones])
    }

    @Test func zonesAfterCollectionBeganTakesPrecedenceOverInvalidZones() {
        var h = EngineHarness()
        h.hr(100, at: 0)
        h.send(
            .sessionStart(SessionStartRequest(zones: Self.zones(.heartRate, [100, 150]), zonesDefect: "bad power")),
            at: 1)
        #expect(h.rejectionReasons == [.zonesAfterCollectionBegan])
    }

    @Test func finishedSessionDeadLettersItsEventsUntilRetentionEnds() {
        var h = EngineHarness(settings: EngineSettings(finishedRetentionMs: 60_000))
        h.start()
        h.hr(100, at: 0)
        h.end(at: 1)
        h.wallMs = 1000
        h.hr(100, at: 2)
        h.send(.pause, at: 2)
        #expect(h.rejectionReasons == [.sessionFinished, .sessionFinished])
        #expect(h.live == nil)
        h.wallMs = 61_000
        h.hr(100, at: 3)
        #expect(h.live?.startTimestamp == EngineHarness.ms(3), "after retention the id starts anew")
    }

    @Test func newSessionStartBeginsANewSessionDuringRetention() {
        var h = EngineHarness()
        h.start(activity: "first")
        h.end(at: 1)
        h.start(at: 10, activity: "second")
        #expect(h.live?.activity == "second")
        #expect(h.live?.startTimestamp == EngineHarness.ms(10))
        #expect(h.rejectionReasons.isEmpty)
    }

    @Test func idleSessionFinishesAtItsLatestAppliedTime() throws {
        var h = EngineHarness(settings: EngineSettings(idleTimeoutMs: 600_000))
        h.start()
        h.hr(100, at: 0)
        h.hr(120, at: 4)
        h.wallMs = 599_999
        h.expire(wallMs: h.wallMs)
        #expect(h.outputs.finished.isEmpty)
        h.wallMs = 600_000
        h.expire(wallMs: h.wallMs)
        let summary = try #require(h.outputs.finished.first)
        #expect(summary.endReason == .idleTimeout)
        #expect(summary.endTimestamp == EngineHarness.ms(4))
        #expect(summary.durations(.heartRate) == [0, 4000, 0, 0, 0])
        #expect(h.live == nil)
    }

    /// Outputs name their session through the buffer's shared identities: several sessions'
    /// outputs in one buffer (an idle sweep releasing held samples) each name their own, and a
    /// person a later `session_start` sets is on the outputs after it, not on those before.
    @Test func eachOutputNamesItsOwnSessionAndThePersonOfItsTime() {
        var h = EngineHarness(settings: EngineSettings(idleTimeoutMs: 1000, reorderWindowMs: 5000))
        for session in ["a", "b"] {
            h.send(.sessionStart(SessionStartRequest()), at: 0, session: session)
            h.send(.sample(.heartRate, value: 100, person: nil), at: 1, session: session)
        }
        h.send(.sample(.heartRate, value: 170, person: nil), at: 2, session: "a")
        h.wallMs = 1000
        h.expire(wallMs: h.wallMs)
        #expect(h.outputs.finished.map(\.session).sorted() == ["a", "b"])
        let named = h.outputs.zoneChanges.map { ($0.session.session, $0.change.currentZone) }
        #expect(named.map(\.0) == ["a", "a", "b"])
        #expect(named.map(\.1) == [1, 4, 1])

        var later = EngineHarness()
        later.start()
        later.hr(100, at: 1)
        later.send(.sessionStart(SessionStartRequest(person: "p")), at: 2)
        later.hr(170, at: 3)
        let people = later.outputs.zoneChanges.map { $0.session.person }
        #expect(people == [nil, "p"])
    }

    @Test func lateSamplesDoNotKeepASessionAlive() {
        var h = EngineHarness(settings: EngineSettings(idleTimeoutMs: 1000))
        h.hr(100, at: 5)
        h.wallMs = 900
        h.hr(100, at: 1)  // late: not applied
        h.wallMs = 1000
        h.expire(wallMs: h.wallMs)
        #expect(h.outputs.finished.count == 1)
    }

    @Test func sessionEndWhilePausedCountsThePauseToTheEnd() throws {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 0)
        h.send(.pause, at: 3)
        let summary = try #require({ h.end(at: 10) }())
        #expect(summary.pausedMs == 7000)
        #expect(summary.durations(.heartRate) == [0, 3000, 0, 0, 0])
        #expect(summary.untracked(.heartRate) == 0)
    }
}

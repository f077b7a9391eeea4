import Testing
import ZoneEngine
import ZoneTestSupport

/// The counting rules of docs/reference/contract.md, one rule at a time. Default zones 91/114/136/158
/// unless stated.
@Suite struct CountingRulesTests {
    @Test func sampleCoversUntilTheNextSample() throws {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 0)
        h.hr(120, at: 3)
        let summary = try #require({ h.end(at: 5) }())
        #expect(summary.durations(.heartRate) == [0, 3000, 2000, 0, 0])
        #expect(summary.untracked(.heartRate) == 0)
    }

    @Test func gapIsCappedAtMaxGap() throws {
        var h = EngineHarness(settings: EngineSettings(maxGapMs: 4000))
        h.start()
        h.hr(100, at: 0)
        h.hr(120, at: 10)
        let summary = try #require({ h.end(at: 20) }())
        #expect(summary.durations(.heartRate) == [0, 4000, 4000, 0, 0])
        #expect(summary.untracked(.heartRate) == 12000)
    }

    @Test func timeBeforeTheFirstSampleIsUntracked() throws {
        var h = EngineHarness()
        h.start(at: 0)
        h.hr(100, at: 3)
        let summary = try #require({ h.end(at: 5) }())
        #expect(summary.durations(.heartRate) == [0, 2000, 0, 0, 0])
        #expect(summary.untracked(.heartRate) == 3000)
    }

    @Test func pauseEndsCoverageAndResumeLeavesUntrackedUntilTheNextSample() throws {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 0)
        h.send(.pause, at: 2)
        h.send(.resume, at: 5)
        h.hr(100, at: 6)
        let summary = try #require({ h.end(at: 8) }())
        #expect(summary.durations(.heartRate) == [0, 4000, 0, 0, 0])
        #expect(summary.pausedMs == 3000)
        #expect(summary.untracked(.heartRate) == 1000)
        #expect(summary.durationMs == 8000)
    }

    @Test func sampleArrivingAfterAPauseEventButTimedBeforeItIsCreditedUpToThePause() throws {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 0)
        h.send(.pause, at: 6)
        h.hr(120, at: 5)  // earlier than the pause, later than the last sample: applied
        h.send(.resume, at: 10)
        let summary = try #require({ h.end(at: 10) }())
        #expect(summary.durations(.heartRate) == [0, 5000, 1000, 0, 0])
        #expect(summary.pausedSamples == 0)
        #expect(summary.untracked(.heartRate) == 0)
    }

    @Test func samplesInsidePausesArePaused() throws {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 0)
        h.send(.pause, at: 2)
        h.hr(100, at: 2)  // at the start of an open pause
        h.hr(100, at: 3)  // inside the open pause
        h.send(.resume, at: 5)
        h.hr(100, at: 5)  // at the resume: running again
        let summary = try #require({ h.end(at: 6) }())
        #expect(summary.pausedSamples == 2)
        #expect(summary.statistics.first?.samples == 2)
        #expect(summary.durations(.heartRate) == [0, 3000, 0, 0, 0])
    }

    @Test func sampleInAClosedPauseIntervalIsPaused() throws {
        var h = EngineHarness()
        h.start()
        h.power(100, at: 0)
        h.send(.pause, at: 2)
        h.send(.resume, at: 5)
        h.hr(100, at: 3)  // first heart-rate sample, but inside [2, 5)
        h.hr(100, at: 6)
        let summary = try #require({ h.end(at: 7) }())
        #expect(summary.pausedSamples == 1)
        #expect(summary.untracked(.heartRate) == 3000)  // active 7 - 3 = 4 s, covered [6, 7)
        #expect(summary.durations(.heartRate) == [0, 1000, 0, 0, 0])
    }

    @Test func pauseDoesNotResetTheCurrentZone() {
        var h = EngineHarness()
        h.start()
        h.hr(120, at: 0)
        h.send(.pause, at: 1)
        h.send(.resume, at: 2)
        h.hr(125, at: 3)
        #expect(h.outputs.zoneChanges.count == 1)
    }

    @Test func duplicateAndLateSamplesAreCountedNotApplied() throws {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 0)
        h.hr(120, at: 4)
        h.hr(120, at: 4)  // duplicate
        h.hr(121, at: 4)  // same time, other value: late
        h.hr(130, at: 2)  // earlier: late
        let summary = try #require({ h.end(at: 6) }())
        #expect(summary.duplicateSamples == 1)
        #expect(summary.lateSamples == 2)
        #expect(summary.durations(.heartRate) == [0, 4000, 2000, 0, 0])
        #expect(summary.statistics.first?.samples == 2)
    }

    @Test func sampleBeforeTheSessionStartIsLate() throws {
        var h = EngineHarness()
        h.start(at: 10)
        h.hr(100, at: 5)
        h.hr(100, at: 10)
        let summary = try #require({ h.end(at: 11) }())
        #expect(summary.lateSamples == 1)
        #expect(summary.statistics.first?.samples == 1)
    }

    @Test func duplicateAndLateArePerQuantity() throws {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 5)
        h.power(100, at: 3)  // earlier than heart rate's last sample, but power's first: applied
        let summary = try #require({ h.end(at: 6) }())
        #expect(summary.lateSamples == 0)
        #expect(summary.statistics.map(\.samples) == [1, 1])
    }

    @Test func activitiesSplitIntervalsAtTheirBoundaries() throws {
        var h = EngineHarness()
        h.start(activity: "multisport")
        h.hr(100, at: 0)
        h.send(.activityStart("cycling"), at: 2)
        h.hr(120, at: 4)
        h.send(.activityStart("running"), at: 7)  // ends cycling at 7
        h.send(.activityEnd, at: 8)
        let summary = try #require({ h.end(at: 9) }())
        #expect(summary.activities.map(\.name) == ["cycling", "running"])
        #expect(summary.activities.map(\.startTimestamp) == [EngineHarness.ms(2), EngineHarness.ms(7)])
        #expect(summary.activities.map(\.endTimestamp) == [EngineHarness.ms(7), EngineHarness.ms(8)])
        #expect(summary.activities[0].zoneGroups.first?.zoneDurations == [0, 2000, 3000, 0, 0])
        #expect(summary.activities[1].zoneGroups.first?.zoneDurations == [0, 0, 1000, 0, 0])
        #expect(summary.durations(.heartRate) == [0, 4000, 5000, 0, 0])
    }

    @Test func openActivityEndsWithTheSessionAndEveryActivityHasTheWorkoutsQuantities() throws {
        var h = EngineHarness()
        h.profiles["p"] = PersonProfile(person: "p", functionalThresholdPower: 200)
        h.start(person: "p")
        h.send(.activityStart("ride"), at: 0)
        h.power(150, at: 0)
        h.send(.activityStart("run"), at: 5)
        h.hr(100, at: 5)
        let summary = try #require({ h.end(at: 8) }())
        #expect(summary.activities.last?.endTimestamp == EngineHarness.ms(8))
        for activity in summary.activities {
            #expect(activity.zoneGroups.map(\.configuration.quantity) == [.heartRate, .cyclingPower])
        }
        #expect(summary.activities[0].zoneGroups[0].zoneDurations.reduce(0, +) == 0)
    }

    @Test func noActivityEventsMeansNoActivities() throws {
        var h = EngineHarness()
        h.hr(100, at: 0)
        #expect(try #require({ h.end(at: 1) }()).activities.isEmpty)
    }

    @Test func seriesExpandsToOneSampleEveryInterval() throws {
        var h = EngineHarness()
        h.start()
        h.send(.sampleSeries(.heartRate, intervalMs: 2000, values: [100, 120, 140], person: nil), at: 0)
        h.send(.sampleSeries(.heartRate, intervalMs: 2000, values: [140, 100], person: nil), at: 3)  // 3 late, 5 ok
        let summary = try #require({ h.end(at: 7) }())
        #expect(summary.lateSamples == 1)
        #expect(summary.durations(.heartRate) == [0, 4000, 2000, 1000, 0])
        #expect(h.outputs.zoneChanges.map(\.change.currentZone) == [1, 2, 3, 1])
    }

    @Test func statisticsOverAcceptedSamplesOnly() throws {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 0)
        h.hr(150, at: 1)
        h.hr(90, at: 0.5)  // late
        h.hr(110, at: 2)
        let statistics = try #require(h.end(at: 3)?.statistics.first)
        #expect(statistics.minimum == 100)
        #expect(statistics.maximum == 150)
        #expect(statistics.average == 120)
        #expect(statistics.samples == 3)
    }

    @Test func quantityWithoutZonesHasStatisticsAndUntrackedButNoZoneGroup() throws {
        var h = EngineHarness()
        h.power(200, at: 0)  // no ftp: no power zones
        let summary = try #require({ h.end(at: 15) }())
        #expect(summary.zoneGroups.isEmpty)
        #expect(summary.statistics.map(\.quantity) == [.cyclingPower])
        #expect(summary.untracked(.cyclingPower) == 5000)
        #expect(h.outputs.zoneChanges.isEmpty)
    }

    @Test func zoneChangeIncludesTheFirstSampleAndCumulativeDurations() {
        var h = EngineHarness()
        h.start()
        h.hr(100, at: 0)
        h.hr(105, at: 2)
        h.hr(120, at: 4)
        let changes = h.outputs.zoneChanges.map(\.change)
        #expect(changes.count == 2)
        #expect(changes[0].previousZone == nil)
        #expect(changes[0].currentZone == 1)
        #expect(changes[1].previousZone == 1)
        #expect(changes[1].durations[1] == 4000)
        #expect(changes[1].timestamp == EngineHarness.ms(4))
    }

    @Test func dampingPublishesOnlyAfterTheDwell() throws {
        var h = EngineHarness(settings: EngineSettings(zoneChangeMinDwellMs: 3000))
        h.start()
        h.hr(100, at: 0)  // zone 2 run starts
        h.hr(101, at: 3)  // qualifies: published at 3 s
        h.hr(120, at: 4)  // zone 3 run starts
        h.hr(100, at: 5)  // back to 2: published zone, nothing
        h.hr(120, at: 6)  // zone 3 run restarts
        h.hr(121, at: 8)  // 2 s: not yet
        h.hr(122, at: 9)  // 3 s: published, previous = zone 2
        let changes = h.outputs.zoneChanges.map(\.change)
        #expect(changes.map(\.timestamp) == [EngineHarness.ms(3), EngineHarness.ms(9)])
        #expect(changes.map(\.previousZone) == [nil, 1])
        #expect(changes.map(\.currentZone) == [1, 2])
        let summary = try #require({ h.end(at: 10) }())
        #expect(summary.durations(.heartRate) == [0, 5000, 5000, 0, 0], "damping never changes durations")
    }

    @Test func normalizedZonesAreCreditedAlongside() throws {
        let model = try ZoneConfiguration.validated(quantity: .heartRate, source: .normalized, boundaries: [110, 130])
        var settings = EngineSettings()
        settings.normalization.heartRate = model
        var h = EngineHarness(settings: settings)
        h.start()
        h.hr(100, at: 0)
        h.hr(120, at: 2)
        h.power(100, at: 0)
        let summary = try #require({ h.end(at: 5) }())
        #expect(summary.normalizedZoneGroups?.count == 1)
        #expect(summary.normalizedZoneGroups?[0].configuration.source == .normalized)
        #expect(summary.normalizedZoneGroups?[0].zoneDurations == [2000, 3000, 0])
    }

    @Test func normalizedZoneGroupsAreEmptyWhenNoQuantityOfTheWorkoutHasAModel() throws {
        let model = try ZoneConfiguration.validated(
            quantity: .cyclingPower, source: .normalized, boundaries: [100, 200])
        var settings = EngineSettings()
        settings.normalization.cyclingPower = model
        var h = EngineHarness(settings: settings)
        h.start()
        h.hr(100, at: 0)
        let summary = try #require({ h.end(at: 5) }())
        #expect(summary.normalizedZoneGroups?.isEmpty == true, "normalization is on: present, and {}")
        var plain = EngineHarness()
        plain.start()
        plain.hr(100, at: 0)
        #expect(try #require({ plain.end(at: 5) }()).normalizedZoneGroups == nil, "normalization off: absent")
    }
}

import Foundation
import Testing
import ZoneTestSupport

@testable import ZoneEngine

/// docs/reference/contract.md, "Effort": bands of an exact maximum, points, calories and work,
/// each rounded half away from zero, counted over the covered intervals only.
@Suite struct EffortTests {
    /// A harness whose person has the given profile and whose session starts with it.
    static func started(_ profile: PersonProfile) -> EngineHarness {
        var h = EngineHarness()
        h.profiles[profile.person] = profile
        h.start(person: profile.person)
        return h
    }

    @Test func aValueOnABandBoundaryBelongsToTheUpperBand() throws {
        // 176.5 x 0.5 = 88.25 exactly: 88.25 is band 1, the double just below it band 0.
        let parameters = try #require(HeartRateEffortParameters.make(from: PersonProfile(person: "p", age: 45)))
        #expect(parameters.maximumHeartRate == 176.5)
        #expect(parameters.band(of: 88.25) == 1)
        #expect(parameters.band(of: 88.25.nextDown) == 0)
        // 0.9 x 176.5 = 158.85, and the double 158.85 is just below it: band 4, as the
        // contract asks (the value's double against the exact product).
        #expect(parameters.band(of: 158.85) == 4)
        #expect(parameters.band(of: 158.85.nextUp) == 5)
        #expect(parameters.band(of: 300) == 5)
    }

    @Test func bandFloorsAreTheSmallestDoublesAtOrAboveTheExactProducts() throws {
        // For maxima whose products are not doubles (0.6 x 181.4 = 108.84), the floor is the
        // first double >= the exact product k x M / 10^(p+1): checked in 128-bit integers.
        for maximum in [181.4, 187.7, 190.3, 173.13, 200.001, 165.000007, 176.5, 180] {
            let parameters = try #require(
                HeartRateEffortParameters.make(from: PersonProfile(person: "p", maximumHeartRate: maximum)))
            let exact = try #require(parameters.exactMaximum)
            let denominator = UInt64(ScaledDecimal.powersOfTen[exact.places + 1])
            for band in 0..<5 {
                let numerator = UInt64(band + 5) * UInt64(exact.mantissa)
                let floor = parameters.bandFloors[band]
                #expect(Self.compare(floor, numerator, denominator) >= 0, "\(maximum) band \(band + 1)")
                #expect(Self.compare(floor.nextDown, numerator, denominator) < 0, "\(maximum) band \(band + 1)")
            }
        }
    }

    /// The sign of value - numerator / denominator, exactly, for a positive double below 2^11.
    static func compare(_ value: Double, _ numerator: UInt64, _ denominator: UInt64) -> Int {
        // value = significand x 2^-shift with an integer significand.
        let shift = 52 - Int(value.exponent)
        let significand = (1 << 52) | value.significandBitPattern
        let left = significand.multipliedFullWidth(by: denominator)
        let right = numerator.multipliedFullWidth(by: 1 << UInt64(shift))
        if left.high != right.high { return left.high < right.high ? -1 : 1 }
        if left.low != right.low { return left.low < right.low ? -1 : 1 }
        return 0
    }

    @Test func pointsAreBandTimesMinutesRoundedHalfAwayFromZero() throws {
        // 3 s in band 1 = 0.05 points -> 0.1; 9 s in band 1 = 0.15 -> 0.2.
        var h = Self.started(PersonProfile(person: "p", maximumHeartRate: 200))
        h.hr(110, at: 0)
        let summaryEnded = h.end(at: 3)
        let summary = try #require(summaryEnded)
        #expect(summary.effort.heartRate?.intensityMs == [0, 3000, 0, 0, 0, 0])
        #expect(summary.effort.heartRate?.pointsTenths == 1)
        var longer = Self.started(PersonProfile(person: "p", maximumHeartRate: 200))
        longer.hr(110, at: 0)
        let longerEnded = longer.end(at: 9)
        #expect(longerEnded?.effort.heartRate?.pointsTenths == 2)
    }

    @Test func caloriesFollowKeytelAndStopAtZero() throws {
        // Male, 30 years, 80 kg: (-55.0969 + 0.6309 v + 15.904 + 6.051) / 4.184 kcal a minute.
        // 60 s at 150: 61.4931 / 4.184 = 14.697 kcal; 60 s at 40 (-7.9059 / 4.184, below
        // zero): 0. Total 15.
        var h = Self.started(PersonProfile(person: "m", age: 30, weightKg: 80, sex: .male))
        for second in stride(from: 0.0, to: 120, by: 10) { h.hr(second < 60 ? 150 : 40, at: second) }
        let summaryEnded = h.end(at: 120)
        let summary = try #require(summaryEnded)
        #expect(summary.effort.heartRate?.caloriesKcal == 15)
        // Without weight or sex: points but no calories.
        // 10 s at 150 (max 187, band 4): 4 x 10000 / 60000 = 0.667 -> 0.7 points.
        var noWeight = Self.started(PersonProfile(person: "n", age: 30, sex: .male))
        noWeight.hr(150, at: 0)
        let partialEnded = noWeight.end(at: 10)
        let partial = try #require(partialEnded?.effort.heartRate)
        #expect(partial.caloriesKcal == nil)
        #expect(partial.pointsTenths == 7)
    }

    @Test func kilojoulesAreTheWorkRoundedToOneDecimal() throws {
        // 250 W for 10 s = 2.5 kJ; 5 W for 10 s = 0.05 kJ -> 0.1 (a half, away from zero).
        var h = EngineHarness()
        h.start()
        h.power(250, at: 0)
        let hEnded = h.end(at: 10)
        #expect(hEnded?.effort.kilojoulesTenths == 25)
        var small = EngineHarness()
        small.start()
        small.power(5, at: 0)
        let smallEnded = small.end(at: 10)
        #expect(smallEnded?.effort.kilojoulesTenths == 1)
    }

    @Test func pausesAndDropoutsCountNoEffort() throws {
        var h = Self.started(PersonProfile(person: "p", maximumHeartRate: 200))
        h.hr(150, at: 0)  // covers [0, 10 s): max gap
        h.hr(150, at: 30)  // covers [30, 35 s): paused from 35 s
        h.send(.pause, at: 35)
        h.send(.resume, at: 50)
        let summaryEnded = h.end(at: 60)
        let summary = try #require(summaryEnded)
        #expect(summary.effort.heartRate?.intensityMs == [0, 0, 0, 15000, 0, 0])
    }

    @Test func aPersonSetLaterBringsNoProfileAndSoNoHeartRateEffort() throws {
        var h = EngineHarness()
        h.profiles["p"] = PersonProfile(person: "p", maximumHeartRate: 190, functionalThresholdPower: 200)
        h.hr(120, at: 0)
        h.start(at: 1, person: "p")
        h.power(100, at: 2)
        let summaryEnded = h.end(at: 12)
        let summary = try #require(summaryEnded)
        #expect(summary.person == "p")
        #expect(summary.effort.heartRate == nil)
        #expect(summary.effort.kilojoulesTenths == 10)
    }

    @Test func theClassIsSetOnceAndAFinishedWorkoutCarriesIt() throws {
        var h = EngineHarness()
        h.send(.sessionStart(SessionStartRequest(sessionClass: "studio-3/spin-0700")), at: 0)
        h.send(.sessionStart(SessionStartRequest(sessionClass: "studio-9/other")), at: 1)
        h.hr(120, at: 2)
        let hEnded = h.end(at: 3)
        #expect(hEnded?.sessionClass == "studio-3/spin-0700")
        var implicit = EngineHarness()
        implicit.hr(120, at: 0)
        implicit.send(.sessionStart(SessionStartRequest(sessionClass: "late-class")), at: 1)
        let implicitEnded = implicit.end(at: 2)
        #expect(implicitEnded?.sessionClass == "late-class")
    }

    @Test func effortSurvivesTheSnapshot() throws {
        var h = Self.started(PersonProfile(person: "p", age: 45, weightKg: 62, sex: .female))
        h.hr(130, at: 0)
        h.power(180, at: 0)
        let live = try #require(h.live)
        let restored = try live.snapshot().withUnsafeBytes { try WorkoutSession(snapshot: $0) }
        var copy = EngineHarness()
        copy.store.restore(restored)
        let originalEnded = h.end(at: 60)
        let original = try #require(originalEnded)
        let fromSnapshotEnded = copy.end(at: 60)
        let fromSnapshot = try #require(fromSnapshotEnded)
        #expect(original.effort == fromSnapshot.effort)
        #expect(original.effort.heartRate?.caloriesKcal != nil)
    }
}

extension EffortTests {
    /// During a rolling upgrade the changelog is written in format 1: readable by the release
    /// before, and by this one, which then reports no effort it did not count.
    @Test func formatOneLeavesOutClassAndEffortAndReadsBack() throws {
        var h = Self.started(PersonProfile(person: "p", maximumHeartRate: 190))
        h.send(.sessionStart(SessionStartRequest(sessionClass: "studio-1")), at: 0)
        h.hr(150, at: 0)
        let live = try #require(h.live)
        let bytes = live.snapshot(format: 1)
        #expect(bytes.first == 1)
        #expect(bytes.count < live.snapshot().count)
        let restored = try bytes.withUnsafeBytes { try WorkoutSession(snapshot: $0) }
        var copy = EngineHarness()
        copy.store.restore(restored)
        let endedCopy = copy.end(at: 10)
        let summary = try #require(endedCopy)
        #expect(summary.sessionClass == nil)
        #expect(summary.effort == .none)
        #expect(summary.zoneGroups == (h.end(at: 10)?.zoneGroups ?? []))
    }
}

extension EffortTests {
    /// Live views carry the effort so far (through the last accepted sample, as durations),
    /// the class and the profile's display name.
    @Test func aLiveSessionShowsItsEffortClassAndName() throws {
        let profile = PersonProfile(person: "p", name: "Lena K.", age: 45, weightKg: 62, sex: .female)
        var h = EngineHarness()
        h.profiles["p"] = profile
        h.send(.sessionStart(SessionStartRequest(person: "p", sessionClass: "club/hill-repeats")), at: 0)
        for second in stride(from: 0.0, through: 60, by: 10) { h.hr(130, at: second) }
        h.power(200, at: 0)
        h.power(200, at: 10)
        let state = try #require(h.live).liveState(profile: profile)
        #expect(state.name == "Lena K.")
        #expect(state.sessionClass == "club/hill-repeats")
        // 60 s credited at 130 (band 3): 3.0 points; the sample at 60 s is still open.
        #expect(state.effort.heartRate?.intensityMs == [0, 0, 0, 60000, 0, 0])
        #expect(state.effort.heartRate?.pointsTenths == 30)
        #expect(state.effort.heartRate?.caloriesKcal == 8)
        #expect(state.effort.kilojoulesTenths == 20)
    }
}

import Testing
import ZoneEngine

/// System zones computed by hand, in decimal, rounded only at the end (halves away from zero).
@Suite struct SystemZonesTests {
    func heartRate(age: Double? = nil, rest: Double? = nil, max: Double? = nil) -> [Double] {
        SystemZones.heartRate(
            for: PersonProfile(person: "p", age: age, restingHeartRate: rest, maximumHeartRate: max)
        ).boundaries.values
    }

    /// The maximum the board's percent of max divides by: max_hr, else Tanaka from age.
    @Test func maximumHeartRateForPercentOfMax() throws {
        #expect(SystemZones.maximumHeartRate(for: PersonProfile(person: "p", age: 38)) == 181.4)
        #expect(SystemZones.maximumHeartRate(for: PersonProfile(person: "p", age: 38, maximumHeartRate: 190)) == 190)
        #expect(SystemZones.maximumHeartRate(for: PersonProfile(person: "p", restingHeartRate: 60)) == nil)
        #expect(SystemZones.maximumHeartRate(for: nil) == nil)

        var session = WorkoutSession(
            id: "s", startTimestamp: 0, person: "p", activity: nil, appZones: PerQuantity(repeating: nil), profile: nil)
        _ = session.applySample(.heartRate, at: 1000, value: 152, settings: .init())
        #expect(
            session.liveState(profile: PersonProfile(person: "p", maximumHeartRate: 190)).percentOfMaximumHeartRate
                == 80)
        // 152 / 181.4 = 83.8 %
        #expect(session.liveState(profile: PersonProfile(person: "p", age: 38)).percentOfMaximumHeartRate == 84)
        #expect(session.liveState(profile: nil).percentOfMaximumHeartRate == nil)
        #expect(session.liveState(profile: nil).maximumHeartRate == nil)
    }

    @Test func tanakaFromAge() {
        // 208 - 0.7 * 38 = 181.4; x 0.6/0.7/0.8/0.9 = 108.84/126.98/145.12/163.26
        #expect(heartRate(age: 38) == [109, 127, 145, 163])
        // 208 - 0.7 * 45 = 176.5 -> 105.9/123.55/141.2/158.85
        #expect(heartRate(age: 45) == [106, 124, 141, 159])
        // 208 - 0.7 * 20 = 194 -> 116.4/135.8/155.2/174.6
        #expect(heartRate(age: 20) == [116, 136, 155, 175])
    }

    @Test func maxHeartRateWinsOverAge() {
        // 0.7 * 165 = 115.5 exactly in decimal (115.49999999999999 in binary): rounds to 116.
        #expect(heartRate(age: 30, max: 165) == [99, 116, 132, 149])
        #expect(heartRate(max: 190) == [114, 133, 152, 171])
    }

    @Test func karvonenWithRestingBelowMax() {
        // max 208 - 0.7*29 = 187.7; reserve 135.7; 52 + 0.6*135.7 = 133.42, +0.7 -> 146.99,
        // +0.8 -> 160.56, +0.9 -> 174.13
        #expect(heartRate(age: 29, rest: 52) == [133, 147, 161, 174])
        // max 200, rest 60: 60 + p*140 = 144/158/172/186
        #expect(heartRate(rest: 60, max: 200) == [144, 158, 172, 186])
        // rest 50, max 165: 50 + 0.7*115 = 130.5 -> 131
        #expect(heartRate(rest: 50, max: 165)[1] == 131)
    }

    @Test func restingAtOrAboveMaxFallsBackToShareOfMax() {
        #expect(heartRate(rest: 200, max: 190) == [114, 133, 152, 171])
        #expect(heartRate(rest: 190, max: 190) == [114, 133, 152, 171])
    }

    @Test func noUsableMetricsGivesTheDefault() {
        #expect(SystemZones.heartRate(for: nil).boundaries.values == [91, 114, 136, 158])
        #expect(heartRate() == [91, 114, 136, 158])
        #expect(heartRate(rest: 60) == [91, 114, 136, 158])
        #expect(heartRate(age: 0) == [91, 114, 136, 158])
        #expect(heartRate(age: 400) == [91, 114, 136, 158], "Tanaka gives a negative max")
        // A tiny max rounds to non-increasing boundaries: not usable.
        #expect(heartRate(max: 2) == [91, 114, 136, 158])
        #expect(SystemZones.heartRate(for: nil).source == .system)
    }

    @Test func powerFromFTP() {
        func power(_ ftp: Double?) -> [Double]? {
            SystemZones.cyclingPower(for: PersonProfile(person: "p", functionalThresholdPower: ftp))?.boundaries.values
        }
        #expect(power(240) == [132, 180, 216, 252, 288])
        // 115.5/157.5/189/220.5/252 -> halves away from zero
        #expect(power(210) == [116, 158, 189, 221, 252])
        // 90.75/123.75/148.5/173.25/198
        #expect(power(165) == [91, 124, 149, 173, 198])
        #expect(power(nil) == nil)
        #expect(power(0) == nil)
        #expect(power(-100) == nil)
        #expect(SystemZones.cyclingPower(for: nil) == nil)
    }

    @Test func resolutionOrderAppThenUserThenSystem() throws {
        let app = try ZoneConfiguration.validated(quantity: .heartRate, source: .app, boundaries: [100, 120])
        let user = try ZoneConfiguration.validated(quantity: .heartRate, source: .user, boundaries: [110, 130])
        var profile = PersonProfile(person: "p", age: 38, functionalThresholdPower: 200)
        profile.preferredZones.heartRate = user
        #expect(ZoneResolver.resolve(.heartRate, appZones: app, profile: profile) == app)
        #expect(ZoneResolver.resolve(.heartRate, appZones: nil, profile: profile) == user)
        profile.preferredZones.heartRate = nil
        #expect(
            ZoneResolver.resolve(.heartRate, appZones: nil, profile: profile)?.boundaries.values == [
                109, 127, 145, 163,
            ])
        #expect(ZoneResolver.resolve(.cyclingPower, appZones: nil, profile: profile)?.source == .system)
        #expect(ZoneResolver.resolve(.cyclingPower, appZones: nil, profile: nil) == nil)
    }
}

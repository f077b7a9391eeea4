import Foundation
import Testing
import ZoneCodecs
import ZoneEngine
import ZoneSimulation
import ZoneTestSupport

/// The direct `workout_finished` writer against jansson's (``OutputEncoder``), byte for byte,
/// on summaries the engine made from random sessions: ids, persons and activity names that
/// need escaping, app zones with decimal boundaries, both quantities or one, activities,
/// pauses, normalization on and off.
@Suite struct WorkoutFinishedWriterTests {
    static let names = [
        "s", "gym0-17", #"quote"d"#, "back\\slash", "tab\there", "ünïcødé", "emoji 🚴", "ctrl\u{01}", "a/b",
    ]

    @Test func randomSessionsAreWrittenAsJanssonWritesThem() throws {
        var random = SplitMix64(seed: 1_311)
        var writer = WorkoutFinishedWriter()
        var compared = 0
        for round in 0..<400 {
            func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
            var settings = EngineSettings()
            if round % 4 == 3 {
                settings.normalization.heartRate = try ZoneConfiguration.validated(
                    quantity: .heartRate, source: .app, boundaries: [100, 120.5, 140, 160.25])
            }
            let session = Self.names[next(Self.names.count)] + "\(round)"
            var harness = EngineHarness(session: session, settings: settings)
            var zones = PerQuantity<ZoneConfiguration?>(repeating: nil)
            if next(2) == 0 {
                zones.heartRate = try ZoneConfiguration.validated(
                    quantity: .heartRate, source: .app,
                    boundaries: [90 + Double(next(100)) / 10, 130.5, 150 + Double(next(9))])
            }
            if next(2) == 0 {
                zones.cyclingPower = try ZoneConfiguration.validated(
                    quantity: .cyclingPower, source: .app,
                    boundaries: [100, 150.75, 200, 250, 300 + Double(next(50)) / 4])
            }
            let person = next(3) == 0 ? nil : Self.names[next(Self.names.count)]
            let activity = next(3) == 0 ? nil : Self.names[next(Self.names.count)]
            harness.start(at: 0, person: person, activity: activity, zones: zones)
            var seconds = 0.0
            for step in 0..<(5 + next(60)) {
                seconds += Double(1 + next(4)) / 2
                switch next(20) {
                case 0: harness.send(.activityStart(Self.names[next(Self.names.count)]), at: seconds)
                case 1: harness.send(.pause, at: seconds)
                case 2: harness.send(.resume, at: seconds)
                case 3: harness.send(.activityEnd, at: seconds)
                default:
                    if step % 3 == 0 && next(2) == 0 {
                        harness.power(Double(next(4000)) / 10, at: seconds)
                    } else {
                        harness.hr(60 + Double(next(1300)) / 10, at: seconds)
                    }
                }
            }
            let ended = harness.end(at: seconds + Double(next(30)))
            let summary = try #require(ended)
            let jansson = OutputEncoder.workoutFinished(summary)
            let direct = writer.write(summary)
            #expect(
                direct == jansson,
                "\(String(decoding: direct, as: UTF8.self))\n\(String(decoding: jansson, as: UTF8.self))")
            compared += 1
        }
        #expect(compared == 400)
    }
}

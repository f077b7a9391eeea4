import Foundation
import Testing
import ZoneCodecs
import ZoneEngine
import ZoneSimulation
import ZoneTestSupport

/// What the processor reads back from its own topics (the changelog's session snapshots, the
/// person changelog's logs, the repartition topic's workouts) fuzzed the way the input decoder
/// is: valid records mutated byte by byte and field by field (extreme integers, NaN), then
/// read, and whatever is accepted used as the stages use it. A trap anywhere fails the run, so
/// each test passes only if no mutation can crash the process.
@Suite struct InternalRecordFuzzTests {
    /// Values that break arithmetic when read where a time, count or figure belongs.
    static let extremes: [Int64] = [
        .max, .min, -1, 1 << 53, (1 << 53) + 1, 1 << 62, Int64(bitPattern: Double.nan.bitPattern),
        Int64(bitPattern: Double.infinity.bitPattern), Int64(bitPattern: (-1e300).bitPattern),
    ]

    /// `bytes` changed in up to three places: a byte replaced, or eight bytes overwritten by an
    /// extreme value at a field boundary or anywhere.
    static func mutated(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var copy = bytes
        for _ in 0...(random.next() % 3) {
            let position = Int(random.next() % UInt64(copy.count))
            if random.next() % 2 == 0 {
                copy[position] = UInt8(truncatingIfNeeded: random.next())
            } else {
                let value = extremes[Int(random.next() % UInt64(extremes.count))].littleEndian
                withUnsafeBytes(of: value) { raw in
                    for (offset, byte) in raw.enumerated() where position + offset < copy.count {
                        copy[position + offset] = byte
                    }
                }
            }
        }
        return copy
    }

    static func recordedSession() -> WorkoutSession? {
        var h = EngineHarness()
        h.profiles["ana"] = PersonProfile(
            person: "ana", age: 41, maximumHeartRate: 182, functionalThresholdPower: 240, weightKg: 64, sex: .female)
        h.start(person: "ana", activity: "cycling")
        for second in stride(from: 0.0, to: 60, by: 5) {
            h.hr(110 + second, at: second)
            h.power(150 + second * 2, at: second + 1)
        }
        h.send(.pause, at: 61)
        h.send(.resume, at: 64)
        h.send(.activityStart("intervals"), at: 65)
        h.hr(170, at: 66)
        return h.live
    }

    @Test func mutatedSessionSnapshotsAreRefusedOrGoOnWithoutTrapping() throws {
        let snapshot = try #require(Self.recordedSession()).snapshot()
        var random = SplitMix64(seed: 20_261_127)
        var restored = 0
        for _ in 0..<20_000 {
            let bytes = Self.mutated(snapshot, &random)
            guard let session = try? bytes.withUnsafeBytes({ try WorkoutSession(snapshot: $0) }) else { continue }
            restored += 1
            var h = EngineHarness()
            h.store.restore(session)
            h.hr(150, at: 70)
            h.power(200, at: 71)
            h.send(.activityEnd, at: 72)
            h.send(
                .sampleSeries(.heartRate, intervalMs: 1000, values: [120, 130, 140], person: nil),
                atMs: 1 << 53 - 10_000)
            _ = h.end(at: 80)
            h.send(.sessionEnd, atMs: 1 << 53)
        }
        #expect(restored > 0, "some mutations leave a readable snapshot")
    }

    @Test func mutatedPersonLogsAreRefusedOrCountWithoutTrapping() throws {
        var log = PersonTrainingLog(person: "ana")
        for day in 0..<20 {
            let end = 1_717_200_000_000 + Int64(day) * 86_400_000
            _ = log.count(
                CountedWorkout(
                    session: "s\(day)", startTimestamp: end - 3_600_000, endTimestamp: end, durationMs: 3_600_000,
                    pointsTenths: 120, caloriesKcal: 400, kilojoulesTenths: 3000))
        }
        let snapshot = log.snapshot()
        var random = SplitMix64(seed: 20_261_128)
        for _ in 0..<20_000 {
            let bytes = Self.mutated(snapshot, &random)
            guard var restored = try? bytes.withUnsafeBytes({ try PersonTrainingLog(snapshot: $0) }) else { continue }
            let bounded = restored.workouts.allSatisfy { $0.isWithinBounds }
            #expect(bounded)
            let largest = CountedWorkout(
                session: "largest", startTimestamp: 0, endTimestamp: 1 << 53, durationMs: 1 << 53,
                pointsTenths: CountedWorkout.maximumFigure, caloriesKcal: CountedWorkout.maximumFigure,
                kilojoulesTenths: CountedWorkout.maximumFigure)
            if let summary = restored.count(largest) { _ = summary.acuteChronicRatioHundredths }
        }
    }

    @Test func mutatedRepartitionRecordsAreDeadLetteredOrCountWithoutTrapping() {
        var codec = PersonWorkoutCodec()
        let valid = codec.encode(
            CountedWorkout(
                session: "s1", startTimestamp: 1_717_200_000_000, endTimestamp: 1_717_203_600_000,
                durationMs: 3_600_000, pointsTenths: 120, caloriesKcal: 400, kilojoulesTenths: 3000),
            person: "ana")
        let alphabet = Array(#"{}[]":,.-+eE0123456789"#.utf8)
        let numbers = ["9223372036854775807", "-9223372036854775808", "20000000000000000", "1e400", "-1"]
        var random = SplitMix64(seed: 20_261_129)
        var log = PersonTrainingLog(person: "ana")
        for round in 0..<20_000 {
            var text = String(decoding: valid, as: UTF8.self)
            if round % 2 == 0 {
                text = text.replacingOccurrences(
                    of: ["3600000", "400", "3000", "120", "1717200000000"][Int(random.next() % 5)],
                    with: numbers[Int(random.next() % UInt64(numbers.count))])
            }
            var bytes = Array(text.utf8)
            let position = Int(random.next() % UInt64(bytes.count))
            bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            let result = bytes.withUnsafeBytes { codec.decode(value: $0, key: nil) }
            if case .success(let (_, workout)) = result {
                #expect(workout.isWithinBounds)
                for _ in 0..<3 { _ = log.count(workout)?.acuteChronicRatioHundredths }
            }
        }
    }
}

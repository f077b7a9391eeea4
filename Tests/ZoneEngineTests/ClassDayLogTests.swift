import Testing

@testable import ZoneEngine

/// A class day's summary is kept as workouts are counted; it must equal the summary of all
/// its workouts at once: the totals summed, the leaderboard the best ten of a stable sort.
struct ClassDayLogTests {
    /// Workouts whose points and calories often tie, so that the leaderboard's later rules
    /// (session, then start) decide, and some without figures or a person.
    static func workouts(count: Int, seed: UInt64) -> [ClassWorkout] {
        var generator = SplitMix(seed: seed)
        return (0..<count).map { index in
            let start = 1_717_225_200_000 + Int64(generator.next(below: 600)) * 1000
            let duration = Int64(generator.next(below: 3_600_000))
            let complianceCounts = ClassWorkout.ComplianceCounts(inMs: duration / 2, countedMs: duration)
            return ClassWorkout(
                session: "rider-\(generator.next(below: UInt64(count)))", startTimestamp: start,
                endTimestamp: start + duration, durationMs: duration,
                person: index % 7 == 0 ? nil : "person-\(generator.next(below: 40))",
                pointsTenths: index % 5 == 0 ? nil : Int64(generator.next(below: 4)),
                caloriesKcal: index % 9 == 0 ? nil : Int64(generator.next(below: 3)),
                kilojoulesTenths: index % 2 == 0 ? nil : Int64(generator.next(below: 100)),
                intensityMs: (0..<6).map { _ in Int64(generator.next(below: 60_000)) },
                compliance: index % 3 == 0 ? nil : PerQuantity(heartRate: complianceCounts, cyclingPower: nil))
        }
    }

    @Test(arguments: [1, 9, 10, 11, 300, 1000] as [Int])
    func theRunningSummaryIsTheSummaryOfEveryWorkout(count: Int) throws {
        var log = ClassDayLog(sessionClass: "studio-1/spin")
        var counted: [ClassWorkout] = []
        var latest: ClassSummary?
        for workout in Self.workouts(count: count, seed: UInt64(count)) {
            guard let summary = log.count(workout, offsetMinutes: 0) else { continue }
            counted.append(workout)
            latest = summary
        }
        let summary = try #require(latest)
        #expect(summary.workouts == counted.count)
        #expect(summary.asOfTimestamp == counted.map(\.endTimestamp).max())
        #expect(summary.people == Set(counted.compactMap(\.person)).count)
        #expect(summary.durationMs == counted.reduce(0) { $0 + $1.durationMs })
        #expect(summary.pointsTenths == counted.reduce(0) { $0 + ($1.pointsTenths ?? 0) })
        #expect(summary.caloriesKcal == counted.reduce(0) { $0 + ($1.caloriesKcal ?? 0) })
        #expect(summary.kilojoulesTenths == counted.reduce(0) { $0 + ($1.kilojoulesTenths ?? 0) })
        #expect(summary.intensityMs == (0..<6).map { band in counted.reduce(0) { $0 + $1.intensityMs[band] } })
        let inTarget = counted.reduce(0) { $0 + ($1.compliance?.heartRate?.inMs ?? 0) }
        let targeted = counted.contains { $0.compliance?.heartRate != nil }
        #expect(summary.compliance.heartRate?.inMs == (targeted ? inTarget : nil))
        let ranked = Array(
            counted.enumerated().sorted { lhs, rhs in
                if ClassSummary.ranksAbove(lhs.element, rhs.element) { return true }
                if ClassSummary.ranksAbove(rhs.element, lhs.element) { return false }
                return lhs.offset < rhs.offset
            }.map(\.element).prefix(ClassSummary.leaderboardSize))
        #expect(summary.leaderboard == ranked)

        // Read back from its changelog record, the day goes on with the same figures.
        let restored = try log.snapshot().withUnsafeBytes { try ClassDayLog(snapshot: $0) }
        #expect(restored == log)
    }
}

/// A small deterministic generator, so that a failure repeats.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(below bound: UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return (z ^ (z >> 31)) % bound
    }
}

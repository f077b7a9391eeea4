import Testing
import ZoneEngine

/// A plan costs what it holds in the changelog: format 4 writes each distinct step once and
/// time in target only for the steps reached, and every format still reads back to the same
/// session.
@Suite struct PlanSnapshotTests {
    /// 200 one-minute steps, work (heart-rate zones 4-5 and at least 200 W) and recovery
    /// (zones 1-2) in turn: what 733 bytes of `session_start` with a repeat block give.
    static let intervals = WorkoutPlan(
        name: "hiit-200", source: .session, anchor: 0,
        steps: (0..<200).map { index in
            index % 2 == 0
                ? PlanStep(
                    purpose: .work, durationMs: 60_000,
                    targets: PerQuantity(
                        heartRate: .zones(low: 4, high: 5), cyclingPower: .values(minimum: 200, maximum: nil)))
                : PlanStep(
                    purpose: .recovery, durationMs: 60_000,
                    targets: PerQuantity(heartRate: .zones(low: 1, high: 2), cyclingPower: nil))
        })

    static func session(plan: WorkoutPlan?, minutes: Int = 1) -> WorkoutSession {
        var session = WorkoutSession(
            id: "member-00017", startTimestamp: 0, person: "member-00017", activity: "cycling", profile: nil,
            plan: plan)
        for second in stride(from: 0, to: minutes * 60, by: 5) {
            _ = session.applySample(.heartRate, at: Int64(second) * 1000, value: 120, settings: EngineSettings())
            _ = session.applySample(.cyclingPower, at: Int64(second) * 1000, value: 180, settings: EngineSettings())
        }
        return session
    }

    @Test func aSessionFollowingA200StepPlanWritesUnderTwiceAPlainSnapshot() {
        let plain = Self.session(plan: nil).snapshot().count
        let planned = Self.session(plan: Self.intervals).snapshot().count
        #expect(planned <= 2 * plain, "\(planned) bytes against \(plain) without a plan")
        let format3 = Self.session(plan: Self.intervals).snapshot(format: 3).count
        #expect(format3 > 10 * planned, "format 3 wrote every step and count: \(format3) bytes")
        // Time in target grows with the steps reached, not with the plan's length.
        let hourLater = Self.session(plan: Self.intervals, minutes: 60).snapshot().count
        #expect(hourLater < planned + 60 * 3 * 4 * 2 + 64, "\(hourLater) bytes after an hour")
    }

    @Test(arguments: [UInt8(3), 4])
    func everyFormatWithAPlanReadsBackToTheSameSession(format: UInt8) throws {
        let original = Self.session(plan: Self.intervals, minutes: 7)
        let bytes = original.snapshot(format: format)
        #expect(bytes.first == format)
        let restored = try bytes.withUnsafeBytes { try WorkoutSession(snapshot: $0) }
        #expect(restored.plan == original.plan)
        #expect(restored.snapshot(format: format) == bytes)
        #expect(restored.liveState(profile: nil).target == original.liveState(profile: nil).target)
    }

    /// A hand-written record on the changelog cannot name a step the plan does not hold.
    @Test func aStepIndexOutsideTheDistinctStepsIsRefused() {
        var bytes = Self.session(plan: Self.intervals).snapshot()
        guard let name = bytes.firstRange(of: Array("hiit-200".utf8)) else {
            Issue.record("the plan's name is not in the snapshot")
            return
        }
        // After the name: source (1), anchor (8), 2 distinct steps, each 1 + 8 + the targets
        // of two quantities, then the step count (8) and the first step's index.
        let distinctStart = name.upperBound + 1 + 8 + 8
        let work = 1 + 8 + (1 + 8 + 8) + (1 + 1 + 8 + 1)
        let recovery = 1 + 8 + (1 + 8 + 8) + 1
        let firstIndex = distinctStart + work + recovery + 8
        #expect(bytes[firstIndex] == 0 && bytes[firstIndex + 1] == 1)
        bytes[firstIndex] = 7
        #expect(throws: SnapshotError.self) { try bytes.withUnsafeBytes { try WorkoutSession(snapshot: $0) } }
    }
}

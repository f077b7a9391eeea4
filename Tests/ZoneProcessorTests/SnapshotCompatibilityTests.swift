import Foundation
import Testing
import ZoneCodecs
import ZoneEngine
import ZoneTestSupport

/// docs/how-to/upgrade.md's rule for the changelog: every later version restores every earlier
/// snapshot format. Tests/Fixtures/snapshots/v<N>-session.bin is a session snapshot written in
/// format N (v1 by version 0.6.0, v2 by 0.7.0: heart rate and power, an activity, a pause,
/// held statistics); each is restored here, finished, and its finished workout must equal the
/// one stored beside it, field for field. The fixtures are never rewritten to make this pass:
/// a format change that cannot read them needs a converter (docs/how-to/upgrade.md).
@Suite struct SnapshotCompatibilityTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/snapshots")

    /// The plan of the fixtures from format 3 on: ten-second steps, work (heart-rate zones 4-5
    /// and at least 200 W) and recovery (zones 1-2) repeated six times, then a cooldown.
    static let plan = WorkoutPlan(
        name: "fixture-intervals", source: .session, anchor: 1_717_200_000_000,
        steps: (0..<6).flatMap { _ in
            [
                PlanStep(
                    purpose: .work, durationMs: 10_000,
                    targets: PerQuantity(
                        heartRate: .zones(low: 4, high: 5), cyclingPower: .values(minimum: 200, maximum: nil))),
                PlanStep(
                    purpose: .recovery, durationMs: 10_000,
                    targets: PerQuantity(heartRate: .zones(low: 1, high: 2), cyclingPower: nil)),
            ]
        } + [PlanStep(purpose: .cooldown, durationMs: 20_000, targets: PerQuantity(repeating: nil))])

    /// The session the fixture holds, played up to the snapshot (with ``plan`` from format 3 on).
    static func recordedSession(planned: Bool = false) -> EngineHarness {
        var h = EngineHarness()
        h.profiles["ana"] = PersonProfile(
            person: "ana", age: 40, functionalThresholdPower: 240, weightKg: 61.5, sex: .female)
        var request = SessionStartRequest(person: "ana", activity: "cycling")
        request.plan = planned ? plan : nil
        h.send(.sessionStart(request), at: 0)
        h.send(.activityStart("intervals"), at: 0)
        for second in stride(from: 0.0, to: 60, by: 5) {
            h.hr(100 + second * 1.3, at: second)
            h.power(150 + second * 2.1, at: second + 1)
        }
        h.send(.pause, at: 61)
        h.send(.resume, at: 70)
        h.hr(181.9, at: 72)
        return h
    }

    /// A v1 session was recorded before contract 1.2: its finished workout now also carries
    /// `class` (null: v1 had none) and `effort` (`{}`: nothing was counted before the upgrade, so
    /// no partial figure is reported).
    @Test func aVersion1SnapshotIsRestoredAndFinishesAsRecordedWithTheNewFieldsEmpty() throws {
        let finished = try Self.restoreAndFinish(version: 1)
        var expected = try #require(try Self.recordedFinish(version: 1) as? [String: Any])
        expected["class"] = NSNull()
        expected["effort"] = [String: Any]()
        expected["plan"] = NSNull()
        #expect(ExpectationComparison.jsonEqual([finished], [expected]), "\(finished)")
    }

    /// Recorded before contract 1.3: the finished workout now also carries `plan` (null: a
    /// restored session has none) and the effort `score` of the recorded bands (2 x 230,000 /
    /// 69,000 = 6.67, so 7).
    @Test func aVersion2SnapshotIsRestoredAndFinishesAsRecorded() throws {
        let finished = try Self.restoreAndFinish(version: 2)
        var expected = try #require(try Self.recordedFinish(version: 2) as? [String: Any])
        expected["plan"] = NSNull()
        var effort = try #require(expected["effort"] as? [String: Any])
        var heartRate = try #require(effort["heart_rate"] as? [String: Any])
        heartRate["score"] = 7
        effort["heart_rate"] = heartRate
        expected["effort"] = effort
        #expect(ExpectationComparison.jsonEqual([finished], [expected]), "\(finished)")
    }

    /// Recorded by 0.8.0 with a plan of its own: the plan and every step's time in target
    /// come back as they were.
    @Test func aVersion3SnapshotWithAPlanIsRestoredAndFinishesAsRecorded() throws {
        let finished = try Self.restoreAndFinish(version: 3)
        let expected = try Self.recordedFinish(version: 3)
        #expect(ExpectationComparison.jsonEqual([finished], [expected]), "\(finished)")
    }

    static func recordedFinish(version: Int) throws -> Any {
        try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("v\(version)-session.finished.json")))
    }

    static func restoreAndFinish(version: Int) throws -> Any {
        let snapshot = try Data(contentsOf: directory.appendingPathComponent("v\(version)-session.bin"))
        #expect(snapshot.first == UInt8(version), "the fixture is a v\(version) snapshot")
        let restored = try [UInt8](snapshot).withUnsafeBytes { try WorkoutSession(snapshot: $0) }
        var h = EngineHarness()
        h.store.restore(restored)
        let ended = h.end(at: 80)
        let summary = try #require(ended)
        return try JSONSerialization.jsonObject(with: Data(OutputEncoder.workoutFinished(summary)))
    }

    /// Writes the fixture; run once, by hand, when a new format version is introduced (with
    /// ZONESTREAM_WRITE_SNAPSHOT_FIXTURE=v<N>), never to make the test above pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ZONESTREAM_WRITE_SNAPSHOT_FIXTURE"] != nil))
    func writeFixture() throws {
        let name = ProcessInfo.processInfo.environment["ZONESTREAM_WRITE_SNAPSHOT_FIXTURE"] ?? "v1"
        var h = Self.recordedSession(planned: (Int(name.dropFirst()) ?? 1) >= 3)
        let session = try #require(h.live)
        try Data(session.snapshot()).write(to: Self.directory.appendingPathComponent("\(name)-session.bin"))
        let ended = h.end(at: 80)
        let summary = try #require(ended)
        try Data(OutputEncoder.workoutFinished(summary)).write(
            to: Self.directory.appendingPathComponent("\(name)-session.finished.json"))
    }
}

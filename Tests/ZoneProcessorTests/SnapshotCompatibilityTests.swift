import Foundation
import Testing
import ZoneCodecs
import ZoneEngine
import ZoneTestSupport

/// docs/versioning.md's rule for the changelog: every later version restores a v1 snapshot.
/// Tests/Fixtures/snapshots/v1-session.bin is a session snapshot written by version 0.6.0 (v1
/// format: heart rate and power, an activity, a pause, held statistics); it is restored here,
/// finished, and its finished workout must equal the one stored beside it, field for field.
/// The fixture is never rewritten to make this pass: a format change that cannot read it
/// needs a converter (docs/versioning.md).
@Suite struct SnapshotCompatibilityTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/snapshots")

    /// The session the fixture holds, played up to the snapshot.
    static func recordedSession() -> EngineHarness {
        var h = EngineHarness()
        h.profiles["ana"] = PersonProfile(person: "ana", age: 40, functionalThresholdPower: 240)
        h.start(person: "ana", activity: "cycling")
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

    @Test func aVersion1SnapshotIsRestoredAndFinishesAsRecorded() throws {
        let snapshot = try Data(contentsOf: Self.directory.appendingPathComponent("v1-session.bin"))
        #expect(snapshot.first == 1, "the fixture is a v1 snapshot")
        let restored = try [UInt8](snapshot).withUnsafeBytes { try WorkoutSession(snapshot: $0) }
        var h = EngineHarness()
        h.store.restore(restored)
        let ended = h.end(at: 80)
        let summary = try #require(ended)
        let finished = try JSONSerialization.jsonObject(with: Data(OutputEncoder.workoutFinished(summary)))
        let expected = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.directory.appendingPathComponent("v1-session.finished.json")))
        #expect(ExpectationComparison.jsonEqual([finished], [expected]), "\(finished)")
    }

    /// Writes the fixture; run once, by hand, when a new format version is introduced (with
    /// ZONESTREAM_WRITE_SNAPSHOT_FIXTURE=v<N>), never to make the test above pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ZONESTREAM_WRITE_SNAPSHOT_FIXTURE"] != nil))
    func writeFixture() throws {
        var h = Self.recordedSession()
        let session = try #require(h.live)
        let name = ProcessInfo.processInfo.environment["ZONESTREAM_WRITE_SNAPSHOT_FIXTURE"] ?? "v1"
        try Data(session.snapshot()).write(to: Self.directory.appendingPathComponent("\(name)-session.bin"))
        let ended = h.end(at: 80)
        let summary = try #require(ended)
        try Data(OutputEncoder.workoutFinished(summary)).write(to: Self.directory.appendingPathComponent("\(name)-session.finished.json"))
    }
}

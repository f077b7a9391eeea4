import Testing
import ZoneEngine

@testable import ZoneProcessor

/// Changelog records as the restore reads them: a record is refused (skipped, logged and
/// counted) rather than restored into something no input made.
@Suite struct ChangelogRecordTests {
    static func snapshotRecord(of id: String) -> [UInt8] {
        let session = WorkoutSession(id: id, startTimestamp: 0, person: nil, activity: nil, profile: nil)
        return ChangelogRecord.encodeSession(session, appliedThrough: 7, format: WorkoutSession.snapshotVersion)
    }

    @Test func aSnapshotIsRestoredUnderItsOwnKey() throws {
        let value = Self.snapshotRecord(of: "s1")
        let decoded = try Array("s1".utf8).withUnsafeBytes { key in
            try value.withUnsafeBytes { try ChangelogRecord.decode(key: key, value: $0) }
        }
        guard case .session(let session, let appliedThrough) = decoded else {
            Issue.record("\(decoded)")
            return
        }
        #expect(session.id == "s1" && appliedThrough == 7)
    }

    /// A snapshot under another session's key would become a phantom session that later
    /// finishes a workout: refused, with both ids in the reason.
    @Test func aSnapshotUnderAnotherKeyIsRefused() {
        let value = Self.snapshotRecord(of: "s1")
        #expect {
            try Array("s2".utf8).withUnsafeBytes { key in
                try value.withUnsafeBytes { try ChangelogRecord.decode(key: key, value: $0) }
            }
        } throws: { error in
            "\(error)".contains("'s2'") && "\(error)".contains("'s1'")
        }
    }
}

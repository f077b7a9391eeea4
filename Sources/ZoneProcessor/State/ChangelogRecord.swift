import ZoneEngine

/// One record of the changelog topic (co-partitioned with `workout-events`, compacted).
///
/// - A live session: key = session id, value = kind 1, the input offset the state reflects
///   (every record of the session below it is applied), the session snapshot.
/// - A finished session: a tombstone (null value) on the session id, and a retention marker
///   on ``finishedKey(_:)``: kind 2, the input offset, the wall-clock finish time; the marker
///   is tombstoned when the retention ends.
///
/// Marker keys start with a 129-byte prefix, so they can never equal a session id (at most
/// 128 bytes by the contract).
enum ChangelogRecord {
    case session(WorkoutSession, appliedThrough: Int64)
    case finished(String, wallMs: Int64, appliedThrough: Int64)
    /// A tombstone of either kind of key.
    case removed(key: String)

    static let sessionKind: UInt8 = 1
    static let finishedKind: UInt8 = 2
    static let finishedPrefix = "zonestream.finished:" + String(repeating: ".", count: 109)

    static func finishedKey(_ session: String) -> String { finishedPrefix + session }

    /// Key and value to produce (a nil value is a tombstone).
    static func encodeSession(_ session: WorkoutSession, appliedThrough: Int64, format: UInt8) -> [UInt8] {
        var bytes: [UInt8] = [sessionKind]
        append(appliedThrough, to: &bytes)
        bytes.append(contentsOf: session.snapshot(format: format))
        return bytes
    }

    static func encodeFinished(wallMs: Int64, appliedThrough: Int64) -> [UInt8] {
        var bytes: [UInt8] = [finishedKind]
        append(appliedThrough, to: &bytes)
        append(wallMs, to: &bytes)
        return bytes
    }

    /// Reads one changelog record; throws on bytes this version did not write. A session's plan
    /// is `plans`' instance of it, when given.
    static func decode(
        key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?, plans: PlanInterner? = nil
    ) throws(SnapshotError) -> ChangelogRecord {
        guard let key else { throw SnapshotError("changelog record without a key") }
        let keyText = String(decoding: key, as: UTF8.self)
        guard let value else { return .removed(key: keyText) }
        guard value.count >= 9 else { throw SnapshotError("changelog value of \(value.count) bytes") }
        let appliedThrough = readInt64(value, at: 1)
        switch value[0] {
        case sessionKind:
            let session = try WorkoutSession(snapshot: UnsafeRawBufferPointer(rebasing: value[9...]), plans: plans)
            // Restored under its key, a snapshot of another session would be a phantom one that
            // later finishes a workout no input ever started.
            guard session.id == keyText else {
                throw SnapshotError(
                    "changelog key '\(keyText.prefix(128))' holds the snapshot of session '\(session.id)'")
            }
            return .session(session, appliedThrough: appliedThrough)
        case finishedKind:
            guard value.count == 17, keyText.hasPrefix(finishedPrefix) else {
                throw SnapshotError("malformed finished marker")
            }
            return .finished(
                String(keyText.dropFirst(finishedPrefix.count)), wallMs: readInt64(value, at: 9),
                appliedThrough: appliedThrough)
        case let kind:
            throw SnapshotError("unknown changelog record kind \(kind)")
        }
    }

    private static func append(_ value: Int64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func readInt64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
        var value: Int64 = 0
        withUnsafeMutableBytes(of: &value) {
            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8]))
        }
        return Int64(littleEndian: value)
    }
}

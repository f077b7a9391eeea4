public import Logging
import ZoneCodecs
public import ZoneEngine

/// A partition's restorable state, read from the changelog exactly as a restore reads it (so
/// what it shows is what an instance assigned the partition would start from): for the
/// operator's `zonestream state dump`.
public struct PartitionStateDump: Sendable {
    /// Each live session's state (as `/sessions/{id}` shows it, without profile data), by id.
    public let sessions: [LiveSessionState]
    /// Finished sessions still within their retention, with the wall clock time they finished.
    public let finished: [(session: String, wallMs: Int64)]
    public let recordsRead: Int
    /// Records a restore would refuse (each logged).
    public let recordsRefused: Int

    /// Reads `partition` of the changelog topic to its end.
    public static func read(
        configuration: ProcessorConfiguration, partition: Int32, logger: Logger, timeoutMs: Int = 120_000
    ) throws(ProcessorError) -> PartitionStateDump {
        let restorer: ChangelogRestorer
        do {
            restorer = try ChangelogRestorer(configuration: configuration, logger: logger)
        } catch {
            throw ProcessorError(.restoring, reason: "partition \(partition): \(error)")
        }
        var store = SessionStore(settings: configuration.engine)
        var restored = ChangelogRestorer.Restored()
        try restorer.restore(partition: partition, into: &store, &restored, timeoutMs: timeoutMs)
        return PartitionStateDump(
            sessions: store.sessions.map { $0.liveState(profile: nil) }.sorted { $0.session < $1.session },
            finished: store.finishedAt.map { ($0.key, $0.value) }.sorted { $0.session < $1.session },
            recordsRead: restored.recordsRead, recordsRefused: restored.recordsRefused)
    }

    /// One JSON line per entry: `{"kind":"session","state":{...}}` (the `/sessions/{id}`
    /// shape) or `{"kind":"finished","session":id,"finished_wall_ms":ms}`.
    public var jsonLines: [String] {
        let live = sessions.map { state in
            #"{"kind":"session","state":"# + String(decoding: OutputEncoder.liveSession(state), as: UTF8.self) + "}"
        }
        let ended = finished.map { entry in
            let id = String(decoding: OutputEncoder.jsonString(entry.session), as: UTF8.self)
            return #"{"kind":"finished","session":\#(id),"finished_wall_ms":\#(entry.wallMs)}"#
        }
        return live + ended
    }
}

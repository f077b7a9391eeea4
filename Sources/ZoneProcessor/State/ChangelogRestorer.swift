import Foundation
import Logging
import ZoneEngine
import ZoneKafka

/// Reads partitions of the changelog topic back into sessions when a worker is assigned
/// them, before it applies their input. One per worker, created on its first assignment.
final class ChangelogRestorer {
    private let reader: ChangelogReader
    private let logger: Logger

    /// What a restore read: the input offset each session's state reflects (its latest
    /// record's), and how many records were read and refused. The sessions themselves go
    /// straight into the partition's store as they are read, so a restore holds no second
    /// copy of them.
    struct Restored {
        /// By live session, and by finished id: the input offset its latest record reflects.
        var sessionsAppliedThrough: [String: Int64] = [:]
        var finishedAppliedThrough: [String: Int64] = [:]
        var recordsRead = 0
        var recordsRefused = 0
    }

    init(configuration: ProcessorConfiguration, logger: Logger) throws(KafkaError) {
        reader = try ChangelogReader(
            configuration: configuration, topic: configuration.topics.changelog, logger: logger, batchSize: 4096)
        self.logger = logger
    }

    /// Reads `partition` from `start` (its start, or where its standby's state ends) to the
    /// end it had when the restore began. `isStopping`: checked while reading; true ends the
    /// restore with an error (the processor is shutting down and will not apply the partition).
    /// `metrics`: where its progress is reported (readiness and `/metrics`).
    func restore(
        partition: Int32, into store: inout SessionStore, _ restored: inout Restored, from start: Int64 = 0,
        timeoutMs: Int = 300_000, metrics: StateMetrics? = nil, isStopping: () -> Bool = { false }
    ) throws(ProcessorError) {
        defer { metrics?.restoreEnded(partition: partition) }
        var reported = restored.recordsRead
        let progress = { (left: Int64) in
            metrics?.restoreProgressed(partition: partition, read: restored.recordsRead - reported, left: left)
            reported = restored.recordsRead
        }
        // The sessions of a class restored with one instance of its plan.
        let plans = PlanInterner()
        try reader.read(
            partition: partition, from: start, timeoutMs: timeoutMs, isStopping: isStopping, progress: progress
        ) { record in
            restored.recordsRead += 1
            do {
                let decoded = try ChangelogRecord.decode(key: record.key, value: record.value, plans: plans)
                Self.apply(decoded, to: &store, &restored)
            } catch {
                restored.recordsRefused += 1
                logger.error(
                    "changelog record refused",
                    metadata: [
                        "partition": .stringConvertible(partition), "offset": .stringConvertible(record.offset),
                        "error": "\(error)",
                    ])
            }
        }
    }

    /// Applies one changelog record to a partition's sessions: how a restore and a standby
    /// (``StandbyPartitions``) follow the changelog alike.
    static func apply(_ record: ChangelogRecord, to store: inout SessionStore, _ restored: inout Restored) {
        switch record {
        case .session(let session, let appliedThrough):
            restored.sessionsAppliedThrough[session.id] = appliedThrough
            store.restore(session)
        case .finished(let id, let wallMs, let appliedThrough):
            restored.finishedAppliedThrough[id] = appliedThrough
            store.restoreFinished(id, wallMs: wallMs)
        case .removed(let key):
            if key.hasPrefix(ChangelogRecord.finishedPrefix) {
                let id = String(key.dropFirst(ChangelogRecord.finishedPrefix.count))
                restored.finishedAppliedThrough[id] = nil
                store.forgetFinished(id)
            } else {
                restored.sessionsAppliedThrough[key] = nil
                store.forget(key)
            }
        }
    }
}

import Foundation
import Logging
import ZoneEngine
import ZoneKafka

/// Reads partitions of the changelog topic back into sessions when a worker is assigned
/// them, before it applies their input. One per worker, created on its first assignment.
final class ChangelogRestorer {
    private let reader: ChangelogReader
    private let logger: Logger

    /// What one partition's changelog held, reduced to its latest record per key.
    struct Restored {
        var sessions: [String: (session: WorkoutSession, appliedThrough: Int64)] = [:]
        var finished: [String: (wallMs: Int64, appliedThrough: Int64)] = [:]
        var recordsRead = 0
        var recordsRefused = 0
    }

    init(configuration: ProcessorConfiguration, logger: Logger) throws(KafkaError) {
        reader = try ChangelogReader(
            configuration: configuration, topic: configuration.topics.changelog, logger: logger, batchSize: 4096)
        self.logger = logger
    }

    /// Reads `partition` from its start to the end it had when the restore began.
    /// `isStopping`: checked while reading; true ends the restore with an error (the
    /// processor is shutting down and will not apply the partition).
    func restore(
        partition: Int32, timeoutMs: Int = 300_000, isStopping: () -> Bool = { false }
    ) throws(ProcessorError) -> Restored {
        var restored = Restored()
        try reader.read(partition: partition, timeoutMs: timeoutMs, isStopping: isStopping) { record in
            restored.recordsRead += 1
            do {
                try Self.apply(try ChangelogRecord.decode(key: record.key, value: record.value), to: &restored)
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
        return restored
    }

    private static func apply(_ record: ChangelogRecord, to restored: inout Restored) throws {
        switch record {
        case .session(let session, let appliedThrough):
            restored.sessions[session.id] = (session, appliedThrough)
        case .finished(let id, let wallMs, let appliedThrough):
            restored.finished[id] = (wallMs, appliedThrough)
        case .removed(let key):
            if key.hasPrefix(ChangelogRecord.finishedPrefix) {
                restored.finished[String(key.dropFirst(ChangelogRecord.finishedPrefix.count))] = nil
            } else {
                restored.sessions[key] = nil
            }
        }
    }
}

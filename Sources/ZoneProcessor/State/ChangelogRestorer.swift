import Foundation
import Logging
import ZoneEngine
import ZoneKafka

/// Reads partitions of the changelog topic back into sessions when a worker is assigned
/// them, before it applies their input. One per worker, created on its first assignment.
final class ChangelogRestorer {
    private let consumer: KafkaConsumer
    /// Restored partitions are forwarded here and read in batches.
    private let queue: KafkaQueue
    private let topic: String
    private let logger: Logger

    /// What one partition's changelog held, reduced to its latest record per key.
    struct Restored {
        var sessions: [String: (session: WorkoutSession, appliedThrough: Int64)] = [:]
        var finished: [String: (wallMs: Int64, appliedThrough: Int64)] = [:]
        var recordsRead = 0
        var recordsRefused = 0
    }

    init(configuration: ProcessorConfiguration, logger: Logger) throws(KafkaError) {
        topic = configuration.topics.changelog
        self.logger = logger
        consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: nil, logger: logger,
            properties: ["fetch.wait.max.ms": "10", "fetch.max.bytes": "52428800"])
        queue = consumer.makeQueue(batchSize: 4096)
    }

    deinit { consumer.close() }

    /// The partition's watermarks, asked again until `deadline` when the broker does not
    /// answer in time: a broker slow to answer (a loaded machine, a leader moving) is not a
    /// reason to stop the processor, and the restore has its own deadline.
    private func watermarks(_ partition: Int32, until deadline: Date, isStopping: () -> Bool) throws -> (low: Int64, high: Int64) {
        var attempts = 0
        while true {
            do {
                return try consumer.watermarks(TopicPartition(topic: topic, partition: partition))
            } catch {
                attempts += 1
                if isStopping() {
                    throw ProcessorError(.stoppedWhileRestoring, partition: partition, reason: "the processor is stopping")
                }
                guard Date() < deadline else { throw error }
                if attempts == 1 {
                    logger.warning("changelog watermarks not answered; asking again", metadata: [
                        "partition": .stringConvertible(partition), "error": "\(error)"])
                }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// Reads `partition` from its start to the end it had when the restore began.
    /// `isStopping`: checked while reading; true ends the restore with an error (the
    /// processor is shutting down and will not apply the partition).
    func restore(
        partition: Int32, timeoutMs: Int = 300_000, isStopping: () -> Bool = { false }
    ) throws(ProcessorError) -> Restored {
        do {
            return try read(partition: partition, timeoutMs: timeoutMs, isStopping: isStopping)
        } catch let error as ProcessorError {
            throw error
        } catch {
            throw ProcessorError(.restoring, partition: partition, reason: "\(error)")
        }
    }

    private func read(partition: Int32, timeoutMs: Int, isStopping: () -> Bool) throws -> Restored {
        var restored = Restored()
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        let (low, high) = try watermarks(partition, until: deadline, isStopping: isStopping)
        guard high > low else { return restored }
        let start = TopicPartition(topic: topic, partition: partition, offset: TopicPartition.beginning)
        // Forward before assigning: once assigned, librdkafka starts fetching at once and
        // sends the partition's records to the consumer's own queue, which nobody reads here,
        // until it is forwarded. Records fetched in that window were lost to the restore: it
        // then either waited for them until the timeout, or (when later records came through)
        // ended without them. A forward made by the application is kept by the fetch start.
        consumer.forward(start, to: queue)
        try consumer.assign([start])
        defer {
            consumer.stopForwarding(start)
            try? consumer.assign([])
        }
        var next = low
        var failure: KafkaError?
        while next < high && failure == nil {
            if isStopping() {
                throw ProcessorError(.stoppedWhileRestoring, partition: partition, reason: "the processor is stopping")
            }
            guard Date() < deadline else {
                throw ProcessorError(
                    .restoring, partition: partition,
                    reason: "\(topic) not read to offset \(high) within \(timeoutMs) ms (at \(next))")
            }
            let consumed = queue.consumeBatch(timeoutMs: 5) { record in
                if let error = record.error {
                    failure = error
                    return
                }
                // The queue can still hold records of the partition restored before this one
                // (fetched ahead), or stale ones of an earlier read: neither may end this read early
                // or overwrite newer state.
                guard record.partition == partition, record.offset >= next else { return }
                next = record.offset + 1
                restored.recordsRead += 1
                do {
                    switch try ChangelogRecord.decode(key: record.key, value: record.value) {
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
                } catch {
                    restored.recordsRefused += 1
                    logger.error("changelog record refused", metadata: [
                        "partition": .stringConvertible(partition), "offset": .stringConvertible(record.offset), "error": "\(error)"])
                }
            }
            // In exactly-once mode the changelog is written in transactions: its last offsets
            // can be commit markers or aborted records, which are never delivered, so the last
            // record read can stay below the end. The consumer's position moves past them.
            if consumed == 0 && next < high, let position = try consumer.positions([start]).first?.offset, position >= high {
                next = position
            }
        }
        if let failure { throw failure }
        return restored
    }
}

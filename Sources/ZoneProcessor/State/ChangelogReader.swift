import Foundation
import Logging
import ZoneKafka

/// Reads one partition of a changelog topic from its start to the end it had when the read
/// began, with a consumer of its own (no group): how a newly assigned partition's state is
/// rebuilt, for the workers' sessions (``ChangelogRestorer``) and the person stage's logs
/// (``PersonTableRestorer``).
final class ChangelogReader {
    let topic: String
    private let consumer: KafkaConsumer
    /// Read partitions are forwarded here and read in batches.
    private let queue: KafkaQueue
    private let logger: Logger
    /// Records another application wrote end the read with an error (``StateOwner``).
    private let owner: StateOwner

    init(configuration: ProcessorConfiguration, topic: String, logger: Logger, batchSize: Int) throws(KafkaError) {
        self.topic = topic
        self.logger = logger
        owner = configuration.stateOwner
        consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: nil, logger: logger,
            properties: ["fetch.wait.max.ms": "10", "fetch.max.bytes": "52428800"])
        queue = consumer.makeQueue(batchSize: batchSize)
    }

    deinit { consumer.close() }

    /// Reads `partition` from `start` (0: its start) to its end as of now, handing `apply` each
    /// record in order, until `timeoutMs`. `isStopping`: checked while reading; true ends the read with an
    /// error (the processor is shutting down and will not apply the partition). `progress`:
    /// told after each batch how many records are left.
    func read(
        partition: Int32, from start: Int64 = 0, timeoutMs: Int, isStopping: () -> Bool,
        progress: (_ left: Int64) -> Void = { _ in }, _ apply: (KafkaRecord) -> Void
    ) throws(ProcessorError) {
        do {
            try readRecords(
                partition: partition, from: start, timeoutMs: timeoutMs, isStopping: isStopping, progress: progress,
                apply)
        } catch let error as ProcessorError {
            throw error
        } catch let error as StateOwner.ForeignRecord {
            throw ProcessorError(
                .foreignState, partition: partition,
                reason: owner.refusal(topic: topic, partition: partition, offset: error.offset, writer: error.writer))
        } catch {
            throw ProcessorError(.restoring, partition: partition, reason: "\(topic): \(error)")
        }
    }

    /// The application, other than this one, that wrote one of the last `count` records of
    /// `partition`; nil when they are all this application's (or the partition is empty).
    /// How the start refuses a changelog another application writes, before anything changes.
    func foreignWriter(partition: Int32, lastRecords count: Int64, timeoutMs: Int) throws -> String? {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        let (_, high) = try watermarks(partition, until: deadline, isStopping: { false })
        do {
            try readRecords(
                partition: partition, from: high - count, timeoutMs: timeoutMs, isStopping: { false },
                progress: { _ in }, { _ in })
            return nil
        } catch let error as StateOwner.ForeignRecord {
            return error.writer
        }
    }

    private func readRecords(
        partition: Int32, from startOffset: Int64, timeoutMs: Int, isStopping: () -> Bool,
        progress: (_ left: Int64) -> Void, _ apply: (KafkaRecord) -> Void
    ) throws {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        let (low, high) = try watermarks(partition, until: deadline, isStopping: isStopping)
        let first = max(low, startOffset)
        guard high > first else { return }
        let start = TopicPartition(
            topic: topic, partition: partition, offset: first > low ? first : TopicPartition.beginning)
        // Forward before assigning: once assigned, librdkafka starts fetching at once and
        // sends the partition's records to the consumer's own queue, which nobody reads here,
        // until it is forwarded. Records fetched in that window were lost to the read: it
        // then either waited for them until the timeout, or (when later records came through)
        // ended without them. A forward made by the application is kept by the fetch start.
        consumer.forward(start, to: queue)
        try consumer.assign([start])
        defer {
            consumer.stopForwarding(start)
            try? consumer.assign([])
        }
        var next = first
        var failure: KafkaError?
        var foreignWriter: (writer: String, offset: Int64)?
        progress(high - next)
        defer { progress(0) }
        while next < high && failure == nil {
            if let foreignWriter {
                throw StateOwner.ForeignRecord(writer: foreignWriter.writer, offset: foreignWriter.offset)
            }
            try checkGoingOn(
                partition: partition, at: next, to: high, deadline: deadline, timeoutMs: timeoutMs,
                isStopping: isStopping)
            let consumed = queue.consumeBatch(timeoutMs: 5) { record in
                if let error = record.error {
                    failure = error
                    return
                }
                // The queue can still hold records of the partition read before this one
                // (fetched ahead), or stale ones of an earlier read: neither may end this read
                // early or overwrite newer state.
                guard record.partition == partition, record.offset >= next, foreignWriter == nil else { return }
                if owner.isForeign(record) {
                    foreignWriter = (StateOwner.writer(of: record), record.offset)
                    return
                }
                next = record.offset + 1
                apply(record)
            }
            // In exactly-once mode a changelog is written in transactions: its last offsets
            // can be commit markers or aborted records, which are never delivered, so the last
            // record read can stay below the end. The consumer's position moves past them.
            if consumed == 0 && next < high, let position = try consumer.positions([start]).first?.offset,
                position >= high
            {
                next = position
            }
            if consumed > 0 { progress(high - next) }
        }
        if let failure { throw failure }
    }

    /// Throws when the read must end before `high`: the processor is stopping, or `deadline`
    /// has passed.
    private func checkGoingOn(
        partition: Int32, at next: Int64, to high: Int64, deadline: Date, timeoutMs: Int, isStopping: () -> Bool
    ) throws(ProcessorError) {
        if isStopping() {
            throw ProcessorError(.stoppedWhileRestoring, partition: partition, reason: "the processor is stopping")
        }
        guard Date() < deadline else {
            throw ProcessorError(
                .restoring, partition: partition,
                reason: "\(topic) not read to offset \(high) within \(timeoutMs) ms (at \(next))")
        }
    }

    /// The partition's watermarks, asked again until `deadline` when the broker does not
    /// answer in time: a broker slow to answer (a loaded machine, a leader moving) is not a
    /// reason to stop the processor, and the read has its own deadline.
    private func watermarks(_ partition: Int32, until deadline: Date, isStopping: () -> Bool) throws -> (
        low: Int64, high: Int64
    ) {
        var attempts = 0
        while true {
            do {
                return try consumer.watermarks(TopicPartition(topic: topic, partition: partition))
            } catch {
                attempts += 1
                if isStopping() {
                    throw ProcessorError(
                        .stoppedWhileRestoring, partition: partition, reason: "the processor is stopping")
                }
                guard Date() < deadline else { throw error }
                if attempts == 1 {
                    logger.warning(
                        "changelog watermarks not answered; asking again",
                        metadata: [
                            "topic": "\(topic)", "partition": .stringConvertible(partition), "error": "\(error)",
                        ])
                }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }
}

import Foundation
import Logging
import ZoneEngine
import ZoneKafka

/// Reads a partition of the person changelog back into person logs when the person stage is
/// assigned the matching partition of the repartition topic: the latest record per person,
/// a null value removing the person.
final class PersonTableRestorer {
    private let consumer: KafkaConsumer
    private let queue: KafkaQueue
    private let topic: String
    private let logger: Logger

    init(configuration: ProcessorConfiguration, logger: Logger) throws(KafkaError) {
        topic = configuration.topics.personChangelog
        self.logger = logger
        consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: nil, logger: logger, properties: ["fetch.wait.max.ms": "10"])
        queue = consumer.makeQueue(batchSize: 1024)
    }

    deinit { consumer.close() }

    /// The person logs of `partition`, read from its start to the end it had when the read began.
    func restore(partition: Int32, timeoutMs: Int) throws(ProcessorError) -> [String: PersonTrainingLog] {
        do {
            return try read(partition: partition, deadline: Date().addingTimeInterval(Double(timeoutMs) / 1000))
        } catch let error as ProcessorError {
            throw error
        } catch {
            throw ProcessorError(.restoring, partition: partition, reason: "\(topic): \(error)")
        }
    }

    private func read(partition: Int32, deadline: Date) throws -> [String: PersonTrainingLog] {
        var logs: [String: PersonTrainingLog] = [:]
        let (low, high) = try consumer.watermarks(TopicPartition(topic: topic, partition: partition))
        guard high > low else { return logs }
        let start = TopicPartition(topic: topic, partition: partition, offset: TopicPartition.beginning)
        // Forwarded before it is assigned, so no record fetched at once is missed (as in
        // ChangelogRestorer).
        consumer.forward(start, to: queue)
        try consumer.assign([start])
        defer {
            consumer.stopForwarding(start)
            try? consumer.assign([])
        }
        var next = low
        while next < high {
            guard Date() < deadline else {
                throw ProcessorError(.restoring, partition: partition, reason: "\(topic) not read to offset \(high) in time (at \(next))")
            }
            var failure: KafkaError?
            let consumed = queue.consumeBatch(timeoutMs: 5) { record in
                if let error = record.error {
                    failure = error
                    return
                }
                guard record.partition == partition, record.offset >= next else { return }
                next = record.offset + 1
                apply(record, to: &logs)
            }
            if let failure { throw failure }
            // Transaction markers are never delivered: the position moves past them.
            if consumed == 0, let position = try consumer.positions([start]).first?.offset, position >= high {
                next = position
            }
        }
        return logs
    }

    private func apply(_ record: KafkaRecord, to logs: inout [String: PersonTrainingLog]) {
        guard let key = record.key.map({ String(decoding: $0, as: UTF8.self) }) else { return }
        guard let value = record.value else {
            logs[key] = nil
            return
        }
        do {
            let log = try PersonTrainingLog(snapshot: value)
            guard log.person == key else {
                logger.error("person changelog record refused: its key is not its person", metadata: [
                    "partition": .stringConvertible(record.partition), "offset": .stringConvertible(record.offset)])
                return
            }
            logs[key] = log
        } catch {
            logger.error("person changelog record refused", metadata: [
                "partition": .stringConvertible(record.partition), "offset": .stringConvertible(record.offset),
                "error": "\(error)"])
        }
    }
}

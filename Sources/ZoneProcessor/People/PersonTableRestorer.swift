import Foundation
import Logging
import ZoneEngine
import ZoneKafka

/// Reads a partition of the person changelog back into person logs when the person stage is
/// assigned the matching partition of the repartition topic: the latest record per person,
/// a null value removing the person.
final class PersonTableRestorer {
    private let reader: ChangelogReader
    private let logger: Logger

    init(configuration: ProcessorConfiguration, logger: Logger) throws(KafkaError) {
        reader = try ChangelogReader(
            configuration: configuration, topic: configuration.topics.personChangelog, logger: logger, batchSize: 1024)
        self.logger = logger
    }

    /// The person logs of `partition`, read from its start to the end it had when the read began.
    func restore(partition: Int32, timeoutMs: Int, isStopping: () -> Bool) throws(ProcessorError) -> [String:
        PersonTrainingLog]
    {
        var logs: [String: PersonTrainingLog] = [:]
        try reader.read(partition: partition, timeoutMs: timeoutMs, isStopping: isStopping) { record in
            apply(record, to: &logs)
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
                logger.error(
                    "person changelog record refused: its key is not its person",
                    metadata: [
                        "partition": .stringConvertible(record.partition), "offset": .stringConvertible(record.offset),
                    ])
                return
            }
            logs[key] = log
        } catch {
            logger.error(
                "person changelog record refused",
                metadata: [
                    "partition": .stringConvertible(record.partition), "offset": .stringConvertible(record.offset),
                    "error": "\(error)",
                ])
        }
    }
}

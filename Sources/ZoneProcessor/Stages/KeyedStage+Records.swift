import Foundation
import Logging
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// A stage's records: each counted into its key's state and its summary produced, or
/// dead-lettered with its reason; an output refused for good dead-letters its input.
extension KeyedStage {
    func handle(_ record: KafkaRecord) {
        let partition = record.partition
        guard record.error == nil, tables[partition] != nil else { return }
        if let next = nextOffsets[partition], record.offset < next { return }
        let origin = OutputOrigin(
            aggregation.input, of: configuration.topics, partition: partition, offset: record.offset,
            key: record.key.map { Array($0) }, value: record.value.map { Array($0) })
        switch aggregation.decode(value: record.value, key: record.key) {
        case .failure(let rejection):
            deadLetter(rejection, origin: origin)
        case .success(let (key, item)):
            guard tables[partition]?[key] != nil || hasRoom(forNewKey: key, origin: origin) else { break }
            var state = tables[partition]?[key] ?? aggregation.emptyState(key: key)
            if let output = aggregation.count(item, into: &state) {
                tables[partition]?[key] = state
                changedLogs[partition, default: []].insert(key)
                produce(
                    topic: aggregation.outputTopic(in: configuration.topics), key: output.key, value: output.value,
                    origin: origin)
                figures.countSummary()
            }
        }
        nextOffsets[partition] = record.offset + 1
        hasUncommitted = true
    }

    /// Produces an output of `origin`.
    func produce(
        topic: String, key: String, value: [UInt8]?, partition: Int32? = nil, origin: OutputOrigin,
        header: KafkaHeader? = nil
    ) {
        let context = origin.context(.output)
        do {
            try producer.produce(
                topic: topic, key: Array(key.utf8), value: value, tracker: tracker, partition: partition,
                context: context, input: origin.input, header: header)
        } catch {
            refused(topic: topic, error: error, origin: origin)
        }
    }

    func deadLetter(_ rejection: Rejection, origin: OutputOrigin) {
        let record = OutputEncoder.deadLetter(
            rejection, topic: origin.topic, partition: origin.partition, offset: origin.offset, key: origin.key,
            value: origin.value)
        do {
            try producer.produce(
                topic: configuration.topics.deadLetters, key: record.key, value: record.value, tracker: tracker)
        } catch {
            logger.error(
                "dead letter refused; the record stays at its offset",
                metadata: [
                    "topic": "\(origin.topic)", "partition": .stringConvertible(origin.partition),
                    "offset": .stringConvertible(origin.offset), "error": "\(error.message)",
                ])
        }
    }

    /// An output refused for good: its input is dead-lettered as `output_rejected`.
    func refused(topic: String, error: KafkaError, origin: OutputOrigin) {
        deadLetter(
            Rejection(.outputRejected, "\(topic) refused the record: \(error.message) (code \(error.code))"),
            origin: origin)
    }
}

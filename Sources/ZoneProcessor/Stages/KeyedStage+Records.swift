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
        let input = InputRecord(
            aggregation.role.input, partition: partition, offset: record.offset, key: record.key, value: record.value)
        switch aggregation.decode(value: record.value, key: record.key) {
        case .failure(let rejection):
            deadLetter(rejection, input: input)
        case .success(let (key, item)):
            guard tables[partition]?[key] != nil || hasRoom(forNewKey: key, input: input) else { break }
            var state = tables[partition]?[key] ?? aggregation.emptyState(key: key)
            if let output = aggregation.count(item, into: &state) {
                tables[partition]?[key] = state
                changedLogs[partition, default: []].insert(key)
                produceSummary(
                    topic: configuration.topics[keyPath: aggregation.role.output], key: output.key, value: output.value,
                    partition: partition, input: input.context(.output))
                figures.countSummary()
            }
        }
        nextOffsets[partition] = record.offset + 1
        hasUncommitted = true
    }

    /// Produces an output of the input at `input`.
    func produce(
        topic: String, key: String, value: [UInt8]?, partition: Int32? = nil, input: OutputContext,
        header: KafkaHeader? = nil
    ) {
        let outputKey = Array(key.utf8)
        do {
            try producer.produce(
                topic: topic, key: outputKey, value: value, tracker: tracker, partition: partition, context: input,
                header: header)
        } catch {
            deadLetters.rejectOutput(
                topic: topic, size: value?.count ?? 0, error: error, input: input, outputKey: outputKey, into: tracker)
        }
    }

    /// The workers' answer to what cannot go out as it is, for the stage's records.
    var deadLetters: DeadLetterPolicy {
        DeadLetterPolicy(
            producer: producer, topics: configuration.topics, metrics: metrics, logger: logger, inputs: inputs)
    }

    func deadLetter(_ rejection: Rejection, input: InputRecord) {
        deadLetters.reject(rejection, input: input, into: tracker)
    }
}

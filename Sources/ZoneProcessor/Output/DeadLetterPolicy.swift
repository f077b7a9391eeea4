import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// The one answer to everything that cannot go out as it is: a rejected input becomes a dead
/// letter; an output the broker refused for good dead-letters its input as `output_rejected`,
/// read again by its coordinates (``InputRecordFetcher``); a refused dead letter is sent again
/// without the input's bytes, and when that is refused too, it is logged and counted (the input
/// stays at its offset). Retriable refusals are produced again. Used by the workers and the
/// keyed stages alike; nothing here throws.
struct DeadLetterPolicy: Sendable {
    let producer: KafkaProducer
    let topics: Topics
    let metrics: ProcessorMetrics
    let logger: Logger
    let inputs: InputRecordFetcher

    /// Dead-letters `input` with `rejection`'s reason, from the record's lent bytes.
    func reject(_ rejection: Rejection, input: InputRecord, into tracker: DeliveryTracker) {
        let record = OutputEncoder.deadLetter(
            rejection, topic: input.source.name(in: topics), partition: input.partition, offset: input.offset,
            key: input.key, value: input.value)
        produceDeadLetter(key: record.key, value: record.value, context: input.context(.deadLetter), into: tracker)
        metrics.countDeadLetter(rejection.reason)
    }

    /// Dead-letters the input at `input`'s coordinates as `output_rejected`: the broker refused
    /// an output it produced, keyed `outputKey`. The input is read again first, while `tracker`
    /// counts the answer as in flight; work without an input record (an idle timeout) is
    /// dead-lettered with its coordinates and the output's key.
    func rejectOutput(
        topic: String, size: Int, error: KafkaError, input: OutputContext, outputKey: [UInt8]?,
        into tracker: DeliveryTracker
    ) {
        metrics.countOutputRejected()
        logger.warning(
            "output refused; its input is dead-lettered",
            metadata: [
                "topic": "\(topic)", "bytes": .stringConvertible(size), "error": "\(error.message)",
                "input_partition": .stringConvertible(input.inputPartition),
                "input_offset": .stringConvertible(input.inputOffset),
            ])
        let detail = "\(topic) refused a \(size)-byte record: \(error.message) (code \(error.code))"
        guard input.inputOffset >= 0 else {
            return deadLetter(Rejection(.outputRejected, detail), at: input, key: outputKey, value: nil, into: tracker)
        }
        tracker.answerStarted()
        let policy = self
        inputs.fetch(
            topic: input.inputTopic.name(in: topics), partition: input.inputPartition, offset: input.inputOffset
        ) { fetched in
            switch fetched {
            case .success(let record):
                policy.deadLetter(
                    Rejection(.outputRejected, detail), at: input, key: record.key, value: record.value, into: tracker)
            case .failure(let unreadable):
                let without = "\(detail); the input could not be read again (\(unreadable.reason))"
                policy.deadLetter(
                    Rejection(.outputRejected, without), at: input, key: outputKey, value: nil, into: tracker)
            }
            tracker.answerProduced()
        }
    }

    /// Answers a message the broker refused, into the tracker of the epoch it belongs to:
    /// retriable errors produce it again; anything else is refused for good.
    func resolve(_ failure: DeliveryFailure, into tracker: DeliveryTracker) {
        guard failure.isPermanent else {
            metrics.countOutputRetried()
            logger.warning(
                "output not delivered; producing it again",
                metadata: ["topic": "\(failure.topic)", "error": "\(failure.error.message)"])
            do {
                try producer.produce(
                    topic: failure.topic, key: failure.key, value: failure.value, tracker: tracker,
                    partition: failure.partition, context: failure.context)
            } catch {
                // Refused before it was queued (e.g. a fatal producer state): answered as refused.
                refusedForGood(failure, error: error, into: tracker)
            }
            return
        }
        refusedForGood(failure, error: failure.error, into: tracker)
    }

    private func refusedForGood(_ failure: DeliveryFailure, error: KafkaError, into tracker: DeliveryTracker) {
        let context =
            failure.context as? OutputContext
            ?? OutputContext(kind: .output, inputTopic: .workoutEvents, inputPartition: -1, inputOffset: -1)
        guard context.kind == .output else {
            return deadLetterRefused(
                key: failure.key, size: failure.value.count, error: error, context: context, into: tracker)
        }
        rejectOutput(
            topic: failure.topic, size: failure.value.count, error: error, input: context, outputKey: failure.key,
            into: tracker)
    }

    /// Dead-letters the input at `input`'s coordinates with the bytes given.
    private func deadLetter(
        _ rejection: Rejection, at input: OutputContext, key: [UInt8]?, value: [UInt8]?, into tracker: DeliveryTracker
    ) {
        let record = OutputEncoder.deadLetter(
            rejection, topic: input.inputTopic.name(in: topics), partition: input.inputPartition,
            offset: input.inputOffset, key: key, value: value)
        let context = OutputContext(
            kind: .deadLetter, inputTopic: input.inputTopic, inputPartition: input.inputPartition,
            inputOffset: input.inputOffset)
        produceDeadLetter(key: record.key, value: record.value, context: context, into: tracker)
        metrics.countDeadLetter(rejection.reason)
    }

    /// A dead letter carries its input's coordinates only: refused, it is sent again without
    /// the input's bytes.
    private func produceDeadLetter(key: [UInt8]?, value: [UInt8], context: OutputContext, into tracker: DeliveryTracker)
    {
        do {
            try producer.produce(topic: topics.deadLetters, key: key, value: value, tracker: tracker, context: context)
        } catch {
            deadLetterRefused(key: key, size: value.count, error: error, context: context, into: tracker)
        }
    }

    /// A dead letter was refused for good: sent again without the input's bytes, and when that
    /// is refused too, logged with the input's coordinates (the input stays in its topic).
    private func deadLetterRefused(
        key: [UInt8]?, size: Int, error: KafkaError, context: OutputContext, into tracker: DeliveryTracker
    ) {
        let inputTopic = context.inputTopic.name(in: topics)
        guard context.kind == .deadLetter else {
            metrics.countDeadLetterRefused()
            logger.error(
                "dead letter refused; the input stays at its offset",
                metadata: [
                    "topic": "\(inputTopic)", "partition": .stringConvertible(context.inputPartition),
                    "offset": .stringConvertible(context.inputOffset),
                    "dead_letter_topic": "\(topics.deadLetters)", "error": "\(error.message)",
                ])
            return
        }
        let detail =
            "the dead letter of this record (\(size) bytes) was refused by \(topics.deadLetters): "
            + "\(error.message) (code \(error.code)); the record is at its topic, partition and offset"
        let minimal = OutputEncoder.deadLetter(
            Rejection(.outputRejected, detail), topic: inputTopic, partition: context.inputPartition,
            offset: context.inputOffset, key: [UInt8]?.none, value: nil)
        let minimalContext = OutputContext(
            kind: .minimalDeadLetter, inputTopic: context.inputTopic, inputPartition: context.inputPartition,
            inputOffset: context.inputOffset)
        produceDeadLetter(key: key, value: minimal.value, context: minimalContext, into: tracker)
    }
}

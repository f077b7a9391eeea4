import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// The one answer to everything that cannot go out as it is: a rejected input becomes a dead
/// letter; an output the broker refused for good dead-letters its input as `output_rejected`;
/// a refused dead letter is sent again without the input's bytes, and when that is refused
/// too, it is logged and counted (the input stays at its offset). Retriable refusals are
/// produced again. Used by the workers and the keyed stages alike; nothing here throws.
struct DeadLetterPolicy {
    let producer: KafkaProducer
    let topics: Topics
    let metrics: ProcessorMetrics
    let logger: Logger

    /// Dead-letters `input` of the workout-events topic with `rejection`'s reason, from the
    /// record's lent bytes (an ``OutputOrigin`` would copy them first).
    func reject(_ rejection: Rejection, input: InputRecord, into tracker: DeliveryTracker) {
        let record = OutputEncoder.deadLetter(
            rejection, topic: topics.workoutEvents, partition: input.partition, offset: input.offset, key: input.key,
            value: input.value)
        produceDeadLetter(key: record.key, value: record.value, context: input.context(.deadLetter), into: tracker)
        metrics.countDeadLetter(rejection.reason)
    }

    /// Dead-letters `origin`, an input of any of the processor's topics, with `rejection`'s reason.
    func reject(_ rejection: Rejection, origin: OutputOrigin, into tracker: DeliveryTracker) {
        let record = OutputEncoder.deadLetter(
            rejection, topic: origin.topic, partition: origin.partition, offset: origin.offset, key: origin.key,
            value: origin.value)
        produceDeadLetter(key: record.key, value: record.value, context: origin.context(.deadLetter), into: tracker)
        metrics.countDeadLetter(rejection.reason)
    }

    /// Dead-letters `origin` as `output_rejected`: the broker refused an output it produced.
    func rejectOutput(topic: String, size: Int, error: KafkaError, origin: OutputOrigin, into tracker: DeliveryTracker)
    {
        metrics.countOutputRejected()
        logger.warning(
            "output refused; its input is dead-lettered",
            metadata: [
                "topic": "\(topic)", "bytes": .stringConvertible(size), "error": "\(error.message)",
                "input_partition": .stringConvertible(origin.partition),
                "input_offset": .stringConvertible(origin.offset),
            ])
        let detail = "\(topic) refused a \(size)-byte record: \(error.message) (code \(error.code))"
        reject(Rejection(.outputRejected, detail), origin: origin, into: tracker)
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
                    partition: failure.partition, context: failure.context, attachment: failure.attachment)
            } catch {
                // Refused before it was queued (e.g. a fatal producer state): answered as refused.
                refusedForGood(failure, error: error, into: tracker)
            }
            return
        }
        refusedForGood(failure, error: failure.error, into: tracker)
    }

    private func refusedForGood(_ failure: DeliveryFailure, error: KafkaError, into tracker: DeliveryTracker) {
        guard let context = failure.context as? OutputContext, context.kind != .output else {
            let origin =
                OutputOrigin(of: failure, topics: topics)
                ?? OutputOrigin(.workoutEvents, of: topics, partition: -1, offset: -1, key: failure.key, value: nil)
            return rejectOutput(
                topic: failure.topic, size: failure.value.count, error: error, origin: origin, into: tracker)
        }
        deadLetterRefused(key: failure.key, size: failure.value.count, error: error, context: context, into: tracker)
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

import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Dead letters: a rejected input, an output the broker refused (its input dead-lettered as
/// `output_rejected`), a refused dead letter (sent again in its minimal form), and the
/// answer to each delivery failure.
extension OutputSink {
    mutating func rejected(_ rejection: Rejection) {
        let record = OutputEncoder.deadLetter(
            rejection, topic: current.topic, partition: current.partition, offset: current.offset, key: current.key,
            value: current.value)
        produceDeadLetter(key: record.key, value: record.value, context: context(.deadLetter), into: tracker)
        metrics.countDeadLetter(rejection.reason)
    }

    /// Dead-letters `origin` as `output_rejected`: the broker refused an output it produced.
    mutating func rejectOutput(
        topic: String, size: Int, error: KafkaError, origin: OutputOrigin, into tracker: DeliveryTracker
    ) {
        metrics.countOutputRejected()
        let detail = "\(topic) refused a \(size)-byte record: \(error.message) (code \(error.code))"
        logger.warning(
            "output refused; its input is dead-lettered",
            metadata: [
                "topic": "\(topic)", "bytes": .stringConvertible(size), "error": "\(error.message)",
                "input_partition": .stringConvertible(origin.partition),
                "input_offset": .stringConvertible(origin.offset),
            ])
        let record = OutputEncoder.deadLetter(
            Rejection(.outputRejected, detail), topic: origin.topic, partition: origin.partition, offset: origin.offset,
            key: origin.key, value: origin.value)
        produceDeadLetter(key: record.key, value: record.value, context: origin.context(.deadLetter), into: tracker)
        metrics.countDeadLetter(.outputRejected)
    }

    /// A dead letter carries its input's coordinates only: refused, it is sent again without
    /// the input's bytes.
    private mutating func produceDeadLetter(
        key: [UInt8]?, value: [UInt8], context: OutputContext, into tracker: DeliveryTracker
    ) {
        do {
            try producer.produce(
                topic: topics.deadLetters, key: key, value: value, tracker: tracker, context: context)
        } catch {
            deadLetterRefused(key: key, size: value.count, error: error, context: context, into: tracker)
        }
    }

    /// A dead letter was refused for good: sent again without the input's bytes, and when that
    /// is refused too, logged with the input's coordinates (the input stays in its topic).
    private mutating func deadLetterRefused(
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

    /// Answers a message the broker refused, into the tracker of the epoch it belongs to:
    /// retriable errors produce it again; a refused output dead-letters its input as
    /// `output_rejected`; a refused dead letter is sent again in its minimal form.
    mutating func resolve(_ failure: DeliveryFailure, into tracker: DeliveryTracker) {
        guard failure.isPermanent else {
            metrics.countOutputRetried()
            logger.warning(
                "output not delivered; producing it again",
                metadata: [
                    "topic": "\(failure.topic)", "error": "\(failure.error.message)",
                ])
            do {
                try producer.produce(
                    topic: failure.topic, key: failure.key, value: failure.value, tracker: tracker,
                    partition: failure.partition, context: failure.context, input: failure.input)
            } catch {
                // Refused before it was queued (e.g. a fatal producer state): answered as refused.
                refusedForGood(failure, error: error, into: tracker)
            }
            return
        }
        refusedForGood(failure, error: failure.error, into: tracker)
    }

    private mutating func refusedForGood(_ failure: DeliveryFailure, error: KafkaError, into tracker: DeliveryTracker) {
        guard let context = failure.context as? OutputContext, context.kind != .output else {
            let origin =
                OutputOrigin(of: failure, topics: topics)
                ?? OutputOrigin(.workoutEvents, of: topics, partition: -1, offset: -1, key: failure.key, value: nil)
            return rejectOutput(
                topic: failure.topic, size: failure.value.count, error: error, origin: origin, into: tracker)
        }
        deadLetterRefused(key: failure.key, size: failure.value.count, error: error, context: context, into: tracker)
    }
}

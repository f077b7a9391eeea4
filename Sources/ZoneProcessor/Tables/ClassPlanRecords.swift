import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Applies `class-plans` records to the ``ClassPlanTable``. A record that breaks the
/// contract's rules is dead-lettered with its reason and the class its key names then has no
/// plan. Every instance reads the whole table, so each instance dead-letters such a record
/// once per start: the repeats are identical (docs/explanation/decisions.md).
final class ClassPlanRecords: @unchecked Sendable {
    // @unchecked: the decoder and the warning are used only by the one table reader's thread;
    // the producer is thread-safe.
    private let table: ClassPlanTable
    private let producer: KafkaProducer
    private let topics: Topics
    private let metrics: ProcessorMetrics
    private let logger: Logger
    private var decoder: ClassPlanDecoder
    private var refusals = RepeatedWarning("class-plan table full; a new class's plan is refused")

    init(
        table: ClassPlanTable, producer: KafkaProducer, configuration: ProcessorConfiguration,
        metrics: ProcessorMetrics, logger: Logger
    ) {
        self.table = table
        self.producer = producer
        self.topics = configuration.topics
        self.metrics = metrics
        self.logger = logger
        decoder = ClassPlanDecoder(maxMessageBytes: configuration.maxMessageBytes)
    }

    func apply(_ record: KafkaRecord) {
        switch decoder.decode(value: record.value, key: record.key) {
        case .success(.upsert(let sessionClass, let plan)):
            guard !table.upsert(plan, for: sessionClass) else { return }
            metrics.countClassPlanRefused()
            refusals.log(to: logger, metadata: ["max_class_plans": .stringConvertible(table.limit)])
        case .success(.delete(let sessionClass)):
            table.delete(sessionClass)
        case .failure(let rejection):
            if let key = record.key { table.delete(String(decoding: key, as: UTF8.self)) }
            deadLetter(rejection, record)
        }
    }

    private func deadLetter(_ rejection: Rejection, _ record: KafkaRecord) {
        metrics.countDeadLetter(rejection.reason)
        let letter = OutputEncoder.deadLetter(
            rejection, topic: topics.classPlans, partition: record.partition, offset: record.offset,
            key: record.key, value: record.value)
        do {
            try producer.produce(topic: topics.deadLetters, key: letter.key, value: letter.value, tracker: nil)
        } catch {
            logger.error(
                "dead letter of a class plan refused",
                metadata: [
                    "partition": .stringConvertible(record.partition), "offset": .stringConvertible(record.offset),
                    "error": "\(error)",
                ])
        }
    }
}

import Dispatch
import ZoneKafka

/// Exactly-once: each commit interval is one Kafka transaction of the worker's outputs,
/// changelog records and input offsets.
extension WorkerLoop {
    static func transactionalProducer(worker: Int, context: WorkerContext) throws -> KafkaProducer {
        let id = context.configuration.transactionalID(role: "w\(worker)")
        let producer = try KafkaProducer(
            configuration: context.configuration.kafka,
            properties: KafkaProducer.transactionalProperties(
                id: id, timeoutMs: context.configuration.transactionTimeoutMs))
        try producer.initTransactions()
        try producer.beginTransaction()
        return producer
    }

    /// Commits the open transaction with the offsets applied so far and opens the next. On a
    /// failure the worker stops: the instance's uncommitted work is discarded with the
    /// transaction, and a restart restores the committed state from the changelog.
    mutating func commitTransaction(changelog: [ChangelogWrite]) {
        guard let producer = transactions, !failed else { return }
        let owner = context.configuration.stateOwner.header
        for write in changelog {
            do {
                try producer.produce(
                    topic: context.configuration.topics.changelog, key: Array(write.key.utf8), value: write.value,
                    tracker: output.tracker, partition: write.partition, header: owner)
            } catch {
                return fail(ProcessorError(.writingChangelog, partition: write.partition, reason: "\(error)"))
            }
        }
        context.metrics.countChangelogRecords(changelog.count)
        // Refusals at once are answered into this transaction, once their inputs are read.
        guard output.tracker.waitForAnswers(timeoutMs: InputRecordFetcher.readTimeoutMs + 5000) else {
            return fail(
                ProcessorError(.committingTransaction, reason: "refused outputs' inputs not read again in time"))
        }
        let topic = context.configuration.topics.workoutEvents
        var offsets: [TopicPartition] = []
        for (partition, state) in partitions where state.hasUncommittedProgress {
            offsets.append(TopicPartition(topic: topic, partition: partition, offset: state.commitOffset))
        }
        let produced = output.tracker.inFlight + output.tracker.deliveredCount + output.tracker.failedCount
        guard !offsets.isEmpty || produced > 0 else { return }
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            if !offsets.isEmpty { try producer.sendOffsetsToTransaction(offsets, consumer: context.consumer) }
            try producer.commitTransaction()
            for offset in offsets { partitions[offset.partition]?.committedOffset = offset.offset }
            context.metrics.countCommit(nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
            _ = output.takeTracker()
            try producer.beginTransaction()
        } catch {
            if error.failure == .abortRequired { try? producer.abortTransaction() }
            fail(ProcessorError(.committingTransaction, reason: "\(error)"))
        }
    }
}

import Dispatch
import ZoneKafka

/// Exactly-once: each seal is one Kafka transaction of the epoch's outputs (produced into it
/// as they were made), its changelog records and its input offsets, committed at once; the
/// next transaction opens with it. A failure is the consumer's end: its uncommitted work is
/// discarded with the transaction, and a restart restores the committed state.
struct TransactionCommitter: Committer {
    /// The consumer's transactional producer, with a transaction always open.
    let producer: KafkaProducer
    /// The group consumer whose position the offsets are committed for.
    let consumer: KafkaConsumer
    let topics: CommitTopics

    /// A transactional producer for `id`, its first transaction open.
    static func producer(
        id: String, configuration: ProcessorConfiguration
    ) throws -> KafkaProducer {
        let producer = try KafkaProducer(
            configuration: configuration.kafka,
            properties: KafkaProducer.transactionalProperties(id: id, timeoutMs: configuration.transactionTimeoutMs))
        try producer.initTransactions()
        try producer.beginTransaction()
        return producer
    }

    var isSettled: Bool { true }

    func forget(_ partition: Int32) {}

    /// Serves the transactional producer's delivery reports.
    func advance(waiting: Bool) -> CommitProgress {
        producer.pollDeliveryReports(timeoutMs: 0)
        return CommitProgress()
    }

    func seal(_ epoch: CommitEpoch) throws(ProcessorError) -> CommitProgress {
        var progress = CommitProgress()
        for write in epoch.changelog {
            do {
                try producer.produce(
                    topic: topics.changelog, key: Array(write.key.utf8), value: write.value, tracker: epoch.outputs,
                    partition: write.partition, header: topics.owner)
            } catch {
                throw ProcessorError(.writingChangelog, partition: write.partition, reason: "\(error)")
            }
        }
        progress.changelogRecords = epoch.changelog.count
        // Refusals at once are answered into this transaction, once their inputs are read.
        guard epoch.outputs.waitForAnswers(timeoutMs: InputRecordFetcher.readTimeoutMs + 5000) else {
            throw ProcessorError(.committingTransaction, reason: "refused outputs' inputs not read again in time")
        }
        let produced = epoch.outputs.inFlight + epoch.outputs.deliveredCount + epoch.outputs.failedCount
        guard !epoch.offsets.isEmpty || produced > 0 else { return progress }
        let offsets = epoch.offsets.map { TopicPartition(topic: topics.input, partition: $0.key, offset: $0.value) }
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            if !offsets.isEmpty { try producer.sendOffsetsToTransaction(offsets, consumer: consumer) }
            try producer.commitTransaction()
            progress.commitNanoseconds = [DispatchTime.now().uptimeNanoseconds - started]
            progress.sealed = true
            try producer.beginTransaction()
        } catch {
            if error.failure == .abortRequired { try? producer.abortTransaction() }
            throw ProcessorError(.committingTransaction, reason: "\(error)")
        }
        return progress
    }
}

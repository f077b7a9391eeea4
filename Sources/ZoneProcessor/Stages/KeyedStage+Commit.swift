import Foundation
import Logging
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// The end of each batch: summaries and dead letters out, then the changed logs, then the
/// offsets (at-least-once, two delivered steps before the commit), or all of it in the
/// stage's transaction (exactly-once).
extension KeyedStage {
    /// Sends the batch's outputs, then its changed logs, and commits its offsets once both
    /// are delivered; what is not delivered stays uncommitted and is read again later.
    func finishBatch() {
        guard hasUncommitted else { return }
        defer { figures.recordDeliveries() }
        if transactional { return commitTransaction() }
        guard deliver() else { return }
        produceChangedLogs()
        guard deliver() else { return }
        do {
            try consumer.commit(offsets)
            hasUncommitted = false
        } catch {
            commitFailures.log(to: logger, metadata: ["error": "\(error)"])
        }
    }

    private var offsets: [TopicPartition] {
        nextOffsets.map {
            TopicPartition(topic: inputTopic, partition: $0.key, offset: $0.value)
        }
    }

    func produceChangedLogs() {
        let owner = configuration.stateOwner.header
        for (partition, keys) in changedLogs {
            for key in keys {
                // A key removed to make room leaves a tombstone, so a restore does not bring it back.
                let state = tables[partition]?[key]
                let input = OutputContext(
                    kind: .output, inputTopic: aggregation.role.changelog, inputPartition: partition, inputOffset: -1)
                produce(
                    topic: changelogTopic, key: key, value: state.map { aggregation.snapshot($0) },
                    partition: partition, input: input, header: owner)
            }
        }
        changedLogs.removeAll()
        aggregation.role.recordKeys(keyCount, in: metrics)
    }

    /// Exactly-once: the batch's logs and offsets join its outputs in the open transaction,
    /// which commits; a failure stops the processor (a restart restores the committed state).
    func commitTransaction() {
        produceChangedLogs()
        // Refusals at once are answered into this transaction, once their inputs are read.
        guard tracker.waitForAnswers(timeoutMs: Self.answersTimeoutMs) else {
            running.store(false, ordering: .releasing)
            return onFatal(
                ProcessorError(
                    .committingTransaction,
                    reason: "\(aggregation.role.name) stage: refused outputs' inputs not read again in time"))
        }
        do {
            try producer.sendOffsetsToTransaction(offsets, consumer: consumer)
            try producer.commitTransaction()
            hasUncommitted = false
            tracker = DeliveryTracker(latency: figures.deliveries)
            try producer.beginTransaction()
        } catch {
            if error.failure == .abortRequired { try? producer.abortTransaction() }
            running.store(false, ordering: .releasing)
            onFatal(ProcessorError(.committingTransaction, reason: "\(aggregation.role.name) stage: \(error)"))
        }
    }

    /// Waits for every output in flight; produces again what the broker refused for a while,
    /// and dead-letters the input of what it refused for good. False when something is still
    /// not delivered.
    func deliver() -> Bool {
        for _ in 0..<5 {
            try? producer.flush(timeoutMs: 10_000)
            // Dead letters of refused outputs wait for their inputs to be read again.
            _ = tracker.waitForAnswers(timeoutMs: Self.answersTimeoutMs)
            let failures = tracker.takeFailures()
            if failures.isEmpty && tracker.inFlight == 0 { return true }
            for failure in failures { deadLetters.resolve(failure, into: tracker) }
        }
        logger.warning(
            "stage outputs not delivered; their inputs stay uncommitted",
            metadata: ["stage": "\(aggregation.role.name)"])
        return false
    }

    /// How long a commit waits for the dead letters of refused outputs: the read of their
    /// inputs, and a little more.
    static var answersTimeoutMs: Int { InputRecordFetcher.readTimeoutMs + 5000 }
}

import Foundation
import Logging
import Synchronization
import ZoneKafka

/// The end of each batch: the batch is sealed as one epoch of the stage's ``Committer``, the
/// workers' own (at-least-once: summaries and dead letters delivered, then the changed logs,
/// then the offsets; exactly-once: all of it in the stage's transaction), and waited for.
extension KeyedStage {
    /// The stage's committer: its transactional producer's, or the commit ledger's, which
    /// serves the stage's own producer's delivery reports while it waits.
    static func committer(
        role: StageRole, configuration: ProcessorConfiguration, consumer: KafkaConsumer, producer: KafkaProducer,
        deadLetters: DeadLetterPolicy, latency: DeliveryLatency?, logger: Logger
    ) -> any Committer {
        let topics = CommitTopics(
            input: role.input.name(in: configuration.topics), changelog: role.changelog.name(in: configuration.topics),
            owner: configuration.stateOwner.header)
        if configuration.guarantee == .exactlyOnce {
            return TransactionCommitter(producer: producer, consumer: consumer, topics: topics)
        }
        var logger = logger
        logger[metadataKey: "stage"] = "\(role.name)"
        return AtLeastOnceCommitter(
            consumer: consumer, producer: producer, topics: topics, deadLetters: deadLetters, latency: latency,
            servesDeliveries: true, logger: logger)
    }

    /// Seals the batch (its outputs, its changed logs, its offsets) and waits until it is
    /// committed; what is not delivered within the committer's limit stays uncommitted and
    /// is read again later.
    func finishBatch() {
        guard hasUncommitted else { return }
        defer { figures.recordDeliveries() }
        let epoch = CommitEpoch(outputs: tracker, offsets: nextOffsets, changelog: changedLogWrites())
        do {
            let progress = try committer.seal(epoch)
            if progress.sealed {
                tracker = DeliveryTracker(latency: figures.deliveries)
                hasUncommitted = false
            }
            rewrite(committer.advance(waiting: true).rewrites)
        } catch {
            running.store(false, ordering: .releasing)
            onFatal(ProcessorError(.committingTransaction, reason: "\(aggregation.role.name) stage: \(error)"))
        }
    }

    /// The changelog records of the keys changed since the last seal: each key's state, or a
    /// tombstone for a key removed to make room (so a restore does not bring it back).
    private func changedLogWrites() -> [ChangelogWrite] {
        var writes: [ChangelogWrite] = []
        for (partition, keys) in changedLogs {
            for key in keys {
                let state = tables[partition]?[key]
                writes.append(
                    ChangelogWrite(partition: partition, key: key, value: state.map { aggregation.snapshot($0) }))
            }
        }
        changedLogs.removeAll()
        aggregation.role.recordKeys(keyCount, in: metrics)
        return writes
    }

    /// Partitions whose changelog lost a write: every key of each is written again with the
    /// next batch, whose offsets wait for it.
    private func rewrite(_ partitions: Set<Int32>) {
        for partition in partitions {
            guard let table = tables[partition] else { continue }
            changedLogs[partition, default: []].formUnion(table.keys)
            hasUncommitted = true
        }
    }
}

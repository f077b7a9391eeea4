import Dispatch
import Foundation
import Logging
import ZoneKafka

/// At-least-once: each sealed epoch goes through ``CommitLedger``'s three delivered steps (its
/// outputs settled, refused ones answered; then its changelog records; then its offsets), and
/// this carries them out. Nothing here waits on the network unless ``advance(waiting:)`` is
/// asked to; a failed offset commit is kept and tried again with the next.
struct AtLeastOnceCommitter: Committer {
    let consumer: KafkaConsumer
    let producer: KafkaProducer
    let topics: CommitTopics
    /// Answers refused outputs, into the tracker of the epoch they belong to.
    let deadLetters: DeadLetterPolicy
    /// Where each changelog record's produce-to-acknowledgement time goes.
    let latency: DeliveryLatency?
    /// Whether this committer serves `producer`'s delivery reports while it waits (a stage's
    /// own producer); the workers' shared producer has a thread of its own for them.
    let servesDeliveries: Bool
    let logger: Logger
    private var ledger = CommitLedger()
    /// Offsets delivered and not yet sent to be committed, or whose commit failed (e.g.
    /// during a rebalance): sent with the next commit.
    private var unacknowledged: [Int32: Int64] = [:]
    /// Commits go out without waiting for the broker (nil, should librdkafka not make the
    /// queue: they then wait).
    private let commits: CommitQueue?
    /// The commit sent and not yet answered, and when it was sent; one at a time.
    private var sent: (offsets: [Int32: Int64], startedNs: UInt64)?
    /// "commit failed; will retry", at most once per 10 s with the count of the others.
    private var commitFailures = RepeatedWarning("commit failed; will retry")

    init(
        consumer: KafkaConsumer, producer: KafkaProducer, topics: CommitTopics, deadLetters: DeadLetterPolicy,
        latency: DeliveryLatency?, servesDeliveries: Bool = false, logger: Logger
    ) {
        self.consumer = consumer
        self.producer = producer
        self.topics = topics
        self.deadLetters = deadLetters
        self.latency = latency
        self.servesDeliveries = servesDeliveries
        self.logger = logger
        commits = try? consumer.makeCommitQueue()
    }

    var isSettled: Bool { ledger.isEmpty }

    mutating func seal(_ epoch: CommitEpoch) -> CommitProgress {
        guard !epoch.offsets.isEmpty else { return CommitProgress() }
        ledger.seal(epoch)
        return CommitProgress(sealed: true)
    }

    /// A commit in flight still carries the partition's offset, but a failed one is not sent
    /// again for it.
    mutating func forget(_ partition: Int32) {
        unacknowledged[partition] = nil
        sent?.offsets[partition] = nil
    }

    mutating func advance(waiting: Bool) -> CommitProgress {
        var progress = CommitProgress()
        let deadline = WallClock.nowMs() + waitLimitMs
        while true {
            if servesDeliveries { producer.pollDeliveryReports(timeoutMs: 0) }
            progress.add(advanceLedger())
            guard waiting, !ledger.isEmpty else { break }
            if WallClock.nowMs() > deadline {
                logger.warning(
                    "outputs not delivered within 60 s; their offsets stay uncommitted",
                    metadata: ["epochs": .stringConvertible(ledger.epochs.count)])
                break
            }
            if servesDeliveries {
                producer.pollDeliveryReports(timeoutMs: 1)
            } else {
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
        progress.add(commitUnacknowledged())
        // At a revocation or shutdown the offsets must reach Kafka: wait for the answer, and
        // send a failed commit again, briefly.
        let commitDeadline = WallClock.nowMs() + 5000
        while waiting && (sent != nil || !unacknowledged.isEmpty) && WallClock.nowMs() < commitDeadline {
            Thread.sleep(forTimeInterval: 0.005)
            progress.add(commitUnacknowledged())
        }
        return progress
    }

    private mutating func advanceLedger() -> CommitProgress {
        var progress = CommitProgress()
        while true {
            switch ledger.nextStep() {
            case .wait:
                return progress
            case .answer(let failures, let tracker):
                for failure in failures { deadLetters.resolve(failure, into: tracker) }
            case .writeChangelog(let epoch, let writes):
                let (tracker, refused) = produceChangelog(writes)
                progress.changelogRecords += writes.count
                ledger.changelogProduced(epoch: epoch, tracker: tracker, refused: refused)
            case .commit(let offsets, let rewrite, let error):
                if !rewrite.isEmpty {
                    logger.error(
                        "changelog write failed; the partition's state is written again",
                        metadata: [
                            "partitions": .array(rewrite.sorted().map { .stringConvertible($0) }),
                            "error": "\(error ?? "refused")",
                        ])
                    progress.rewrites.formUnion(rewrite)
                }
                unacknowledged.merge(offsets) { max($0, $1) }
                progress.add(commitUnacknowledged())
            }
        }
    }

    /// Produces changelog records; returns their tracker and the partitions whose records
    /// librdkafka refused at once.
    private func produceChangelog(_ writes: [ChangelogWrite]) -> (DeliveryTracker, Set<Int32>) {
        let tracker = DeliveryTracker(latency: latency)
        var refused: Set<Int32> = []
        for write in writes {
            do {
                try producer.produce(
                    topic: topics.changelog, key: Array(write.key.utf8), value: write.value, tracker: tracker,
                    partition: write.partition, header: topics.owner)
            } catch {
                refused.insert(write.partition)
            }
        }
        return (tracker, refused)
    }

    /// Takes the answer to the commit in flight, if it came, and sends the offsets not yet
    /// sent when no commit is in flight; keeps them on failure.
    private mutating func commitUnacknowledged() -> CommitProgress {
        var progress = takeAnswer()
        guard sent == nil, !unacknowledged.isEmpty else { return progress }
        let offsets = unacknowledged.map { TopicPartition(topic: topics.input, partition: $0.key, offset: $0.value) }
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            guard let commits else {
                try consumer.commit(offsets)
                unacknowledged.removeAll()
                progress.commitNanoseconds.append(DispatchTime.now().uptimeNanoseconds - started)
                return progress
            }
            try commits.send(offsets)
            sent = (unacknowledged, started)
            unacknowledged.removeAll()
        } catch {
            commitFailed(error)
        }
        return progress
    }

    /// The commit in flight's answer, if it came: on failure its offsets wait for the next.
    private mutating func takeAnswer() -> CommitProgress {
        guard let commits, let inFlight = sent else { return CommitProgress() }
        var progress = CommitProgress()
        for answer in commits.takeAnswers() {
            sent = nil
            if let error = answer.error {
                unacknowledged.merge(inFlight.offsets) { max($0, $1) }
                commitFailed(error)
            } else {
                progress.commitNanoseconds.append(DispatchTime.now().uptimeNanoseconds - inFlight.startedNs)
            }
        }
        return progress
    }

    /// Not fatal: retried with the next commit; if it never lands, the work is replayed
    /// (outputs repeat with identical content, which the contract allows).
    private mutating func commitFailed(_ error: any Error) {
        commitFailures.log(to: logger, metadata: ["error": "\(error)"])
    }
}

import CRdKafka
import Synchronization

/// Offset commits sent without waiting for the broker's answer, and their answers: how a
/// thread that must never wait on the network (a worker) commits. A synchronous commit holds
/// its caller for the broker's round trip, which a slow or paused broker stretches to hundreds
/// of milliseconds; here the answers queue up and their owner takes them when it next looks.
///
/// `@unchecked Sendable`: librdkafka's queue is thread-safe, and one owner sends and takes.
public final class CommitQueue: @unchecked Sendable {
    /// The answer to one commit: the offsets it carried, and its error (nil: committed).
    public struct Answer: Sendable {
        public let offsets: [TopicPartition]
        public let error: KafkaError?
    }

    private let consumer: KafkaConsumer
    private let queue: OpaquePointer

    init(consumer: KafkaConsumer) throws(KafkaError) {
        guard let queue = rd_kafka_queue_new(consumer.client.handle) else {
            throw KafkaError(message: "cannot make a queue", operation: "making a commit queue")
        }
        self.consumer = consumer
        self.queue = queue
    }

    deinit { rd_kafka_queue_destroy(queue) }

    /// Sends a commit of `offsets`; its answer comes through ``takeAnswers()``. Throws at once
    /// when it cannot be sent, as ``KafkaConsumer/commit(_:)`` does (while the group rebalances
    /// after a commit the broker refused as REBALANCE_IN_PROGRESS, for one).
    public func send(_ offsets: [TopicPartition]) throws(KafkaError) {
        guard !offsets.isEmpty else { return }
        let operation = "committing \(offsets.count) offsets"
        try consumer.checkCommitsNotHeld(operation)
        let list = try RDKafkaTopicPartitionList(offsets)
        try KafkaError.check(rd_kafka_commit_queue(consumer.client.handle, list.pointer, queue, nil, nil), operation)
    }

    /// The answers that came since the last call, oldest first; never waits.
    public func takeAnswers() -> [Answer] {
        var answers: [Answer] = []
        while let event = rd_kafka_queue_poll(queue, 0) {
            defer { rd_kafka_event_destroy(event) }
            guard rd_kafka_event_type(event) == RD_KAFKA_EVENT_OFFSET_COMMIT else { continue }
            var error = rd_kafka_event_error(event)
            var offsets: [TopicPartition] = []
            if let list = rd_kafka_event_topic_partition_list(event) {
                offsets = RDKafkaTopicPartitionList.read(list)
                for index in 0..<Int(list.pointee.cnt) where error == RD_KAFKA_RESP_ERR_NO_ERROR {
                    error = list.pointee.elems[index].err
                }
            }
            if error == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS {
                consumer.commitsHeld.store(true, ordering: .releasing)
            }
            let failure =
                error == RD_KAFKA_RESP_ERR_NO_ERROR
                ? nil : KafkaError(error, operation: "committing \(offsets.count) offsets")
            answers.append(Answer(offsets: offsets, error: failure))
        }
        return answers
    }
}

extension KafkaConsumer {
    /// A queue for this consumer's commits that are not waited for.
    public func makeCommitQueue() throws(KafkaError) -> CommitQueue { try CommitQueue(consumer: self) }
}

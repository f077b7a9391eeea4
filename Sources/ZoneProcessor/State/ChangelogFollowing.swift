import Logging
import NIOConcurrencyHelpers
import ZoneKafka

/// Which partitions of the changelog the changelog follower fetches: only those no worker
/// of this instance owns. Fetching every partition and skipping its own instance's records
/// would make an instance that owns every partition read the whole changelog its workers
/// wrote a second time, for nothing.
///
/// The set changes with each assignment and release, from the rebalance callback's thread and
/// the workers'; one lock orders the changes, and the librdkafka calls are made under it so
/// the consumer's assignment is always the last set decided.
final class ChangelogFollowing: Sendable {
    private struct State {
        var consumer: KafkaConsumer?
        var topic = ""
        var logger = Logger(label: "zonestream.changelog-follower")
        var followed: Set<Int32> = []
    }
    private let state = NIOLockedValueBox(State())

    /// The partitions the reader fetches now.
    var followed: Set<Int32> { state.withLockedValue { $0.followed } }

    /// The reader's consumer, once it exists: from then on ``follow(_:)`` changes its
    /// assignment.
    func attach(_ consumer: KafkaConsumer, topic: String, logger: Logger) {
        state.withLockedValue { state in
            state.consumer = consumer
            state.topic = topic
            state.logger = logger
        }
    }

    /// No more changes to the reader's partitions: it is closing, or its processor stopping.
    func detach() {
        state.withLockedValue { $0.consumer = nil }
    }

    /// Makes the reader fetch exactly the partitions `wanted` gives, each partition it did not
    /// fetch yet from the offset `wanted` gives with it. `wanted` is asked under this lock, so
    /// two changes at once apply in the order they were decided.
    func follow(_ wanted: () -> [Int32: Int64]) {
        state.withLockedValue { state in
            guard let consumer = state.consumer else { return }
            let starts = wanted()
            let added = starts.filter { !state.followed.contains($0.key) }
            let removed = state.followed.subtracting(starts.keys)
            do {
                if !removed.isEmpty {
                    try consumer.removeAssignment(
                        removed.map { TopicPartition(topic: state.topic, partition: $0) })
                    state.followed.subtract(removed)
                }
                if !added.isEmpty {
                    try consumer.addAssignment(
                        added.map { TopicPartition(topic: state.topic, partition: $0.key, offset: $0.value) })
                    state.followed.formUnion(added.keys)
                }
            } catch {
                state.logger.warning(
                    "the group-wide changelog reader could not change the partitions it reads",
                    metadata: ["error": "\(error)"])
            }
        }
    }
}

import Logging
import Testing
import ZoneHarness
import ZoneTestSupport

@testable import ZoneKafka

/// A commit sent without waiting: its answer comes through the queue, and the broker holds
/// the offsets once it has.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(5)))
struct CommitQueueTests {
    @Test func aCommitIsAnsweredThroughItsQueue() throws {
        let broker = try BrokerProcess(partitions: 2)
        defer { broker.stop() }
        let consumer = try KafkaConsumer(
            configuration: KafkaConfiguration(bootstrapServers: broker.bootstrapServers), groupID: "commit-queue",
            logger: Logger(label: "test"))
        defer { consumer.close() }
        let partitions = [0, 1].map { TopicPartition(topic: "workout-events", partition: Int32($0)) }
        try consumer.assign(partitions)
        let commits = try consumer.makeCommitQueue()
        #expect(commits.takeAnswers().isEmpty, "nothing sent, nothing answered")
        try commits.send([
            TopicPartition(topic: "workout-events", partition: 0, offset: 5),
            TopicPartition(topic: "workout-events", partition: 1, offset: 7),
        ])
        let answer = Eventually.value(within: 30) { commits.takeAnswers().first }
        #expect(answer?.error == nil, "\(String(describing: answer?.error))")
        #expect(Set(answer?.offsets.map { "\($0.partition):\($0.offset)" } ?? []) == ["0:5", "1:7"])
        let committed = try consumer.committed(partitions)
        #expect(committed.map(\.offset) == [5, 7])
    }
}

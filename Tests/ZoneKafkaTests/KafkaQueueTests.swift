import Foundation
import Logging
import Testing
import ZoneHarness
import ZoneKafka
import ZoneTestSupport

/// A consumer that stops before a record gets that record and the rest of its batch first at
/// its next take, in order, each once.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(5)))
struct KafkaQueueTests {
    @Test func aStoppedBatchComesAgainFromTheRecordItStoppedBefore() throws {
        let broker = try BrokerProcess(partitions: 1)
        defer { broker.stop() }
        let producer = try KafkaProducer(configuration: KafkaConfiguration(bootstrapServers: broker.bootstrapServers))
        for index in 0..<10 {
            try producer.produce(
                topic: "workout-events", key: Array("k\(index)".utf8), value: Array("\(index)".utf8), tracker: nil)
        }
        try producer.flush(timeoutMs: 10_000)
        let consumer = try KafkaConsumer(
            configuration: KafkaConfiguration(bootstrapServers: broker.bootstrapServers), groupID: nil,
            logger: Logger(label: "test-queue"))
        let queue = consumer.makeQueue(batchSize: 64)
        let partition = TopicPartition(topic: "workout-events", partition: 0, offset: TopicPartition.beginning)
        try consumer.assign([partition])
        consumer.forward(partition, to: queue)
        var seen: [Int64] = []
        var stopped = false
        Eventually.holds(within: 30, poll: 0) {
            queue.takeBatch(timeoutMs: 100) { record in
                // Stop once, before offset 4.
                if record.offset == 4 && !stopped {
                    stopped = true
                    return false
                }
                seen.append(record.offset)
                return true
            }
            return seen.count >= 10
        }
        #expect(stopped)
        #expect(seen == Array(0..<10))
    }
}

import Testing
import ZoneHarness
import ZoneKafka
import ZoneTestSupport

/// A safety net, not a speed check: under the full suite's parallel load on 2 cores, starting
/// a broker process and its metadata calls took over a minute once.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct TopicAdminTests {
    @Test func listsTopicsAndCreatesNothingWhenAllExist() throws {
        let broker = try BrokerProcess(partitions: 1)
        defer { broker.stop() }
        let producer = try KafkaProducer(configuration: KafkaConfiguration(bootstrapServers: broker.bootstrapServers))
        let existing = try TopicAdmin.existingTopics(using: producer)
        #expect(
            existing.isSuperset(of: [
                "workout-events", "zone-profiles", "zone-changes", "workouts-finished", "zonestream-dlq",
            ]))
        let created = try TopicAdmin.createMissing(
            [TopicAdmin.Specification(name: "workout-events", partitions: 1, replicationFactor: 1)], using: producer)
        #expect(created.isEmpty)
    }

    /// librdkafka 2.0.2's mock cluster does not answer CreateTopics: the call fails in bounded
    /// time with a clear error instead of hanging (which is why `broker` uses the mock API).
    @Test func mockClusterDoesNotAnswerCreateTopics() throws {
        let broker = try BrokerProcess(partitions: 1)
        defer { broker.stop() }
        let producer = try KafkaProducer(configuration: KafkaConfiguration(bootstrapServers: broker.bootstrapServers))
        #expect(throws: KafkaError.self) {
            try TopicAdmin.createMissing(
                [TopicAdmin.Specification(name: "brand-new", partitions: 1, replicationFactor: 1)], using: producer,
                timeoutMs: 2000)
        }
    }
}

import Foundation
import Testing
import ZoneHarness
import ZoneKafka
import ZoneProcessor
import ZoneTestSupport

/// A topic layout the processor cannot use is refused at start with exit 78, naming the
/// topics and their counts, before anything is consumed: a changelog whose partitions differ
/// from its input's, a missing topic, a table that is not compacted.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct TopicLayoutTests {
    /// A broker with the contract's topics (4 partitions each) and, beside them, a 2-partition
    /// topic and a 4-partition topic that is not compacted.
    static func broker(_ kind: BrokerKind) throws -> (TestBroker?, BrokerProcess?, String) {
        switch kind {
        case .mock:
            let broker = try BrokerProcess(
                partitions: 4, extraArguments: ["--extra-topics", "two-partitions:2,not-compacted:4"])
            return (nil, broker, broker.bootstrapServers)
        case .noida:
            let broker = try TestBroker(.noida, partitions: 4)
            let producer = try KafkaProducer(
                configuration: KafkaConfiguration(bootstrapServers: broker.bootstrapServers, clientID: "zs-test-admin"))
            try TopicAdmin.createMissing(
                [
                    TopicAdmin.Specification(name: "two-partitions", partitions: 2, replicationFactor: 1),
                    TopicAdmin.Specification(name: "not-compacted", partitions: 4, replicationFactor: 1),
                ], using: producer)
            return (broker, nil, broker.bootstrapServers)
        }
    }

    static func refusal(_ bootstrap: String, _ settings: [String]) throws -> (status: Int32, output: String) {
        try ZoneStreamProcess.runToExit(
            ["run", "--bootstrap-servers", bootstrap, "--http-port", "0", "--set", "create_topics.partitions=0"]
                + settings.flatMap { ["--set", $0] }, seconds: 60)
    }

    static func expectRefused(_ result: (status: Int32, output: String), mentioning mentions: [String]) {
        #expect(result.status == 78, "a refused layout exits with EX_CONFIG: \(result.output.suffix(1500))")
        for mention in mentions {
            #expect(result.output.contains(mention), "\(mention) in: \(result.output.suffix(1500))")
        }
        #expect(!result.output.contains("partitions assigned"), "nothing was consumed")
    }

    @Test(arguments: BrokerKind.selected)
    func aChangelogWithOtherPartitionsThanItsInputIsRefused(on kind: BrokerKind) throws {
        let (testBroker, mock, bootstrap) = try Self.broker(kind)
        defer {
            testBroker?.stop()
            mock?.stop()
        }
        Self.expectRefused(
            try Self.refusal(bootstrap, ["topics.changelog=two-partitions"]),
            mentioning: ["'two-partitions' has 2 partitions", "'workout-events' has 4"])
        Self.expectRefused(
            try Self.refusal(bootstrap, ["topics.person_changelog=two-partitions"]),
            mentioning: ["'two-partitions' has 2 partitions", "'zonestream-person-workouts' has 4"])
        Self.expectRefused(
            try Self.refusal(bootstrap, ["topics.person_summaries=no-such-topic"]),
            mentioning: ["'no-such-topic' does not exist", "create_topics.partitions"])
    }

    /// noida-db describes topic configs; librdkafka's mock cluster does not (the check is then
    /// skipped with a warning).
    @Test(arguments: BrokerKind.noidaOnly)
    func aTableThatIsNotCompactedIsRefused(on kind: BrokerKind) throws {
        let (testBroker, mock, bootstrap) = try Self.broker(kind)
        defer {
            testBroker?.stop()
            mock?.stop()
        }
        Self.expectRefused(
            try Self.refusal(bootstrap, ["topics.person_summaries=not-compacted"]),
            mentioning: ["'not-compacted' has cleanup.policy=delete", "compact"])
    }
}

import Foundation
public import Logging
public import ZoneKafka

/// What the processor relies on of its topics, checked at start before anything is consumed,
/// as Kafka Streams checks co-partitioning: every topic exists, each changelog has exactly the
/// partitions of the topic whose state it keeps (the state of partition n is on its partition
/// n), and the tables and changelogs are compacted (or a restore would read every record ever
/// written, and old state would come back). A layout made by hand that breaks any of these
/// would otherwise start, report ready and never produce.
public enum TopicLayout {
    /// Why the layout was refused: every problem found, each naming its topics and counts.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let problems: [String]
        public var description: String {
            "the topic layout cannot be used:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        }
    }

    /// Creates what is missing when `configuration.createTopicPartitions` > 0, then checks the
    /// layout; throws ``Refusal`` naming every problem.
    public static func prepare(_ configuration: ProcessorConfiguration, using producer: KafkaProducer, logger: Logger)
        throws
    {
        let topics = configuration.topics
        if configuration.createTopicPartitions > 0 {
            let specifications = topics.specifications(
                partitions: configuration.createTopicPartitions,
                replicationFactor: configuration.createTopicReplication)
            let created = try TopicAdmin.createMissing(specifications, using: producer)
            if !created.isEmpty { logger.info("created topics", metadata: ["topics": "\(created)"]) }
        }
        var problems = partitionProblems(topics, counts: try TopicAdmin.partitionCounts(using: producer))
        if TopicAdmin.isMockCluster(using: producer) {
            logger.debug("librdkafka's mock cluster keeps no topic configs; compaction not checked")
        } else {
            problems += try compactionProblems(topics, using: producer, logger: logger)
        }
        guard problems.isEmpty else { throw Refusal(problems: problems) }
    }

    /// Tables and changelogs that are not compacted, as the broker describes them; none when it
    /// does not describe them (logged).
    static func compactionProblems(_ topics: Topics, using producer: KafkaProducer, logger: Logger) throws
        -> [String]
    {
        do {
            let policies = try TopicAdmin.topicConfig(
                "cleanup.policy", of: topics.compacted.sorted(), using: producer)
            return compactionProblems(topics, policies: policies)
        } catch {
            logger.warning(
                "the broker did not describe the topics' cleanup policies; compaction not checked",
                metadata: ["error": "\(error)"])
            return []
        }
    }

    /// Missing topics and changelogs whose partitions differ from their input's.
    static func partitionProblems(_ topics: Topics, counts: [String: Int]) -> [String] {
        var problems: [String] = []
        for topic in topics.all where counts[topic] == nil {
            problems.append(
                "topic '\(topic)' does not exist: create it, or set create_topics.partitions so ZoneStream creates its topics"
            )
        }
        let pairs = [
            (topics.changelog, topics.workoutEvents), (topics.personChangelog, topics.personWorkouts),
            (topics.classChangelog, topics.classWorkouts),
        ]
        for (state, input) in pairs {
            guard let stateCount = counts[state], let inputCount = counts[input], stateCount != inputCount else {
                continue
            }
            problems.append(
                "'\(state)' has \(stateCount) partitions and '\(input)' has \(inputCount): a changelog keeps the state of the partition with its number, so it needs exactly \(inputCount) (recreate it with \(inputCount) partitions, or point the setting at one that has)"
            )
        }
        return problems
    }

    /// Tables and changelogs whose cleanup policy leaves out compaction.
    static func compactionProblems(_ topics: Topics, policies: [String: String]) -> [String] {
        topics.compacted.sorted().compactMap { topic in
            guard let policy = policies[topic],
                !policy.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "compact" })
            else { return nil }
            return
                "'\(topic)' has cleanup.policy=\(policy): it keeps the latest record per key and must be compacted (cleanup.policy=compact)"
        }
    }
}

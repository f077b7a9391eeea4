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
        let embedded = TopicAdmin.isMockCluster(using: producer)
        // librdkafka's mock cluster does not answer CreateTopics; its topics are made with it.
        if configuration.createTopicPartitions > 0 && !embedded {
            let specifications = topics.specifications(
                partitions: configuration.createTopicPartitions,
                replicationFactor: configuration.createTopicReplication,
                existing: try TopicAdmin.partitionCounts(using: producer))
            let created = try TopicAdmin.createMissing(specifications, using: producer)
            if !created.isEmpty { logger.info("created topics", metadata: ["topics": "\(created)"]) }
        }
        let counts = try TopicAdmin.partitionCounts(using: producer)
        var problems = partitionProblems(topics, counts: counts)
        problems += try ownerProblems(configuration, counts: counts, logger: logger)
        warnOfUnusedDefaultNames(configuration, counts: counts, logger: logger)
        if embedded {
            if problems.contains(where: { $0.contains("does not exist") }) {
                problems.append(
                    "the embedded broker cannot create topics: start it with this group's topics (zonestream broker --applications \(configuration.groupID))"
                )
            }
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

    /// Changelogs whose last records another application wrote (``StateOwner``): this
    /// application would restore that one's state as its own.
    static func ownerProblems(_ configuration: ProcessorConfiguration, counts: [String: Int], logger: Logger) throws
        -> [String]
    {
        var problems: [String] = []
        for topic in configuration.topics.changelogs {
            guard let partitions = counts[topic], partitions > 0 else { continue }
            let reader = try ChangelogReader(configuration: configuration, topic: topic, logger: logger, batchSize: 64)
            for partition in 0..<Int32(partitions) {
                guard
                    let writer = try reader.foreignWriter(
                        partition: partition, lastRecords: ownerCheckedRecords, timeoutMs: 30_000)
                else { continue }
                problems.append(configuration.stateOwner.refusal(topic: topic, partition: partition, writer: writer))
                break
            }
        }
        return problems
    }

    /// A group other than the default one, on a cluster that has the default group's internal
    /// topics: state written before internal topics were named per application is in those, and
    /// this application does not read it unless told to (docs/how-to/scale.md, "Upgrading from fixed internal names").
    static func warnOfUnusedDefaultNames(_ configuration: ProcessorConfiguration, counts: [String: Int], logger: Logger)
    {
        let defaults = Topics()
        guard configuration.topics.changelog == Topics(application: configuration.groupID).changelog,
            configuration.topics.changelog != defaults.changelog, counts[defaults.changelog] != nil,
            let consumer = try? KafkaConsumer(configuration: configuration.kafka, groupID: nil, logger: logger)
        else { return }
        defer { consumer.close() }
        // Only when it applies: the default group's changelog holds state, and this
        // application has none yet (its first start, or an upgrade that forgot the names).
        func holdsRecords(_ topic: String) -> Bool {
            (0..<Int32(counts[topic] ?? 0)).contains { partition in
                let marks = try? consumer.watermarks(
                    TopicPartition(topic: topic, partition: partition), timeoutMs: 5000)
                return marks.map { $0.high > $0.low } ?? false
            }
        }
        guard holdsRecords(defaults.changelog), !holdsRecords(configuration.topics.changelog) else { return }
        logger.warning(
            "this application's state is in its own topics; the default group's exist beside them",
            metadata: [
                "topics": "\(configuration.topics.changelogs)", "default_group_topics": "\(defaults.changelogs)",
                "hint":
                    "if those hold this application's state from before internal topics were named after group_id, set topics.changelog, topics.person_workouts, topics.person_changelog, topics.class_workouts and topics.class_changelog to their names",
            ])
    }

    /// How many of each changelog partition's last records are checked at start: the records
    /// a compacted topic keeps last are the latest state written, so another application
    /// writing there shows in them (and a restore stops at the first one it meets).
    static let ownerCheckedRecords: Int64 = 16

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

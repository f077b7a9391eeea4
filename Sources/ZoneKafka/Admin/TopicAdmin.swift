import CRdKafka

/// Creates missing topics through the admin API (CreateTopics) of a real cluster.
/// librdkafka's mock cluster does not answer CreateTopics; there, topics are made with
/// ``MockCluster/createTopic(_:partitions:replicationFactor:)``.
public enum TopicAdmin {
    /// A topic to create if it does not exist.
    public struct Specification: Sendable {
        public let name: String
        public let partitions: Int
        public let replicationFactor: Int
        /// Topic configs, e.g. `cleanup.policy: compact`.
        public let configs: [String: String]

        public init(name: String, partitions: Int, replicationFactor: Int, configs: [String: String] = [:]) {
            self.name = name
            self.partitions = partitions
            self.replicationFactor = replicationFactor
            self.configs = configs
        }
    }

    /// The names of the topics the cluster has.
    public static func existingTopics(using producer: KafkaProducer, timeoutMs: Int32 = 10_000) throws(KafkaError)
        -> Set<String>
    {
        var metadata: UnsafePointer<rd_kafka_metadata>?
        try KafkaError.check(rd_kafka_metadata(producer.client.handle, 1, nil, &metadata, timeoutMs), "listing topics")
        defer { rd_kafka_metadata_destroy(metadata) }
        guard let metadata else { return [] }
        return Set((0..<Int(metadata.pointee.topic_cnt)).map { String(cString: metadata.pointee.topics[$0].topic) })
    }

    /// Creates those of `topics` that are missing; returns the names it created.
    @discardableResult
    public static func createMissing(
        _ topics: [Specification], using producer: KafkaProducer, timeoutMs: Int32 = 15_000
    ) throws(KafkaError) -> [String] {
        let existing = try existingTopics(using: producer)
        let missing = topics.filter { !existing.contains($0.name) }
        guard !missing.isEmpty else { return [] }
        let handle = producer.client.handle
        var newTopics: [OpaquePointer?] = []
        defer { for topic in newTopics { rd_kafka_NewTopic_destroy(topic) } }
        for specification in missing {
            var errorText = [CChar](repeating: 0, count: 512)
            guard
                let topic = rd_kafka_NewTopic_new(
                    specification.name, Int32(specification.partitions), Int32(specification.replicationFactor),
                    &errorText, errorText.count)
            else {
                let text = errorText.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                throw KafkaError(message: text, operation: "describing topic \(specification.name)")
            }
            newTopics.append(topic)
            for (key, value) in specification.configs {
                try KafkaError.check(
                    rd_kafka_NewTopic_set_config(topic, key, value), "config \(key) of \(specification.name)")
            }
        }
        let queue = rd_kafka_queue_new(handle)
        defer { rd_kafka_queue_destroy(queue) }
        newTopics.withUnsafeMutableBufferPointer { buffer in
            rd_kafka_CreateTopics(handle, buffer.baseAddress, buffer.count, nil, queue)
        }
        guard let event = rd_kafka_queue_poll(queue, timeoutMs) else {
            throw KafkaError(message: "no answer within \(timeoutMs) ms", operation: "creating topics")
        }
        defer { rd_kafka_event_destroy(event) }
        try KafkaError.check(rd_kafka_event_error(event), "creating topics")
        guard let result = rd_kafka_event_CreateTopics_result(event) else { return [] }
        var count = 0
        guard let results = rd_kafka_CreateTopics_result_topics(result, &count) else { return [] }
        var created: [String] = []
        for index in 0..<count {
            guard let entry = results[index] else { continue }
            let error = rd_kafka_topic_result_error(entry)
            let name = String(cString: rd_kafka_topic_result_name(entry))
            if error == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS { continue }
            try KafkaError.check(error, "creating topic \(name)")
            created.append(name)
        }
        return created
    }
}

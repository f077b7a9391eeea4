import CRdKafka

extension TopicAdmin {
    /// Each of the cluster's topics with its partition count, from one metadata request.
    public static func partitionCounts(using producer: KafkaProducer, timeoutMs: Int32 = 10_000) throws(KafkaError)
        -> [String: Int]
    {
        var metadata: UnsafePointer<rd_kafka_metadata>?
        try KafkaError.check(
            rd_kafka_metadata(producer.client.handle, 1, nil, &metadata, timeoutMs), "describing topics")
        defer { rd_kafka_metadata_destroy(metadata) }
        guard let metadata else { return [:] }
        var counts: [String: Int] = [:]
        for index in 0..<Int(metadata.pointee.topic_cnt) {
            let topic = metadata.pointee.topics[index]
            // A topic the broker reports with an error (being created, not authorized) has no
            // usable count: it is left out, as if missing.
            guard topic.err == RD_KAFKA_RESP_ERR_NO_ERROR else { continue }
            counts[String(cString: topic.topic)] = Int(topic.partition_cnt)
        }
        return counts
    }

    /// Whether the cluster is librdkafka's mock cluster (`zonestream broker`, `--embedded`),
    /// told by the id it gives itself (`mockCluster...`): it keeps no topic configs and leaves
    /// DescribeConfigs unanswered.
    public static func isMockCluster(using producer: KafkaProducer, timeoutMs: Int32 = 10_000) -> Bool {
        guard let id = rd_kafka_clusterid(producer.client.handle, timeoutMs) else { return false }
        defer { rd_kafka_mem_free(producer.client.handle, id) }
        return String(cString: id).hasPrefix("mockCluster")
    }

    /// One config of each of `topics` (DescribeConfigs), by topic; a topic the broker gives no
    /// value for is absent. Throws when the broker does not answer the request.
    public static func topicConfig(
        _ name: String, of topics: [String], using producer: KafkaProducer, timeoutMs: Int32 = 10_000
    ) throws(KafkaError) -> [String: String] {
        let handle = producer.client.handle
        var resources = topics.map { rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, $0) }
        defer { for resource in resources { rd_kafka_ConfigResource_destroy(resource) } }
        let queue = rd_kafka_queue_new(handle)
        defer { rd_kafka_queue_destroy(queue) }
        resources.withUnsafeMutableBufferPointer { buffer in
            rd_kafka_DescribeConfigs(handle, buffer.baseAddress, buffer.count, nil, queue)
        }
        guard let event = rd_kafka_queue_poll(queue, timeoutMs) else {
            throw KafkaError(message: "no answer within \(timeoutMs) ms", operation: "describing topic configs")
        }
        defer { rd_kafka_event_destroy(event) }
        try KafkaError.check(rd_kafka_event_error(event), "describing topic configs")
        guard let result = rd_kafka_event_DescribeConfigs_result(event) else { return [:] }
        var count = 0
        guard let described = rd_kafka_DescribeConfigs_result_resources(result, &count) else { return [:] }
        var values: [String: String] = [:]
        for index in 0..<count {
            guard let resource = described[index],
                rd_kafka_ConfigResource_error(resource) == RD_KAFKA_RESP_ERR_NO_ERROR
            else { continue }
            let topic = String(cString: rd_kafka_ConfigResource_name(resource))
            var entryCount = 0
            guard let entries = rd_kafka_ConfigResource_configs(resource, &entryCount) else { continue }
            for entryIndex in 0..<entryCount {
                guard let entry = entries[entryIndex], String(cString: rd_kafka_ConfigEntry_name(entry)) == name,
                    let value = rd_kafka_ConfigEntry_value(entry)
                else { continue }
                values[topic] = String(cString: value)
            }
        }
        return values
    }
}

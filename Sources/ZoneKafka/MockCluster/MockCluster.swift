import CRdKafka

/// librdkafka's mock cluster: a real Kafka-protocol server on loopback, shared by every
/// client that connects to its bootstrap address (unlike `test.mock.num.brokers`, which is
/// private to one client).
///
/// Limits (librdkafka 2.0.2): each partition keeps about 5 MB (older data is dropped); it does
/// not answer CreateTopics or DescribeConfigs, so topics are created here through the mock API.
///
/// `@unchecked Sendable`: the mock API is thread-safe (it posts to the cluster's own thread).
public final class MockCluster: @unchecked Sendable {
    private let owner: RDKafkaClient
    private let cluster: OpaquePointer

    public init(brokers: Int = 1) throws(KafkaError) {
        let conf = try KafkaConfiguration(bootstrapServers: "").makeNativeConfiguration(defaults: [
            "log_level": "3"
        ])
        owner = try RDKafkaClient(type: RD_KAFKA_PRODUCER, configuration: conf, logger: nil)
        guard let cluster = rd_kafka_mock_cluster_new(owner.handle, Int32(brokers)) else {
            throw KafkaError(message: "could not start the mock cluster", operation: "starting a mock cluster")
        }
        self.cluster = cluster
    }

    deinit { rd_kafka_mock_cluster_destroy(cluster) }

    /// The address clients connect to, e.g. `127.0.0.1:39457`.
    public var bootstrapServers: String { String(cString: rd_kafka_mock_cluster_bootstraps(cluster)) }

    public func createTopic(_ name: String, partitions: Int, replicationFactor: Int = 1) throws(KafkaError) {
        try KafkaError.check(
            rd_kafka_mock_topic_create(cluster, name, Int32(partitions), Int32(replicationFactor)),
            "creating topic \(name)")
    }

    /// Takes a broker down (connections closed, none accepted) or brings it back.
    public func setBroker(_ id: Int32, up: Bool) throws(KafkaError) {
        let error = up ? rd_kafka_mock_broker_set_up(cluster, id) : rd_kafka_mock_broker_set_down(cluster, id)
        try KafkaError.check(error, up ? "bringing broker \(id) up" : "taking broker \(id) down")
    }

    /// Makes the next `errors.count` requests of one API (Kafka protocol ApiKey, e.g. 26 for
    /// EndTxn) fail with these broker error codes, in order: failure injection for tests.
    public func failNextRequests(apiKey: Int16, errors: [Int32]) {
        var codes = errors.map { rd_kafka_resp_err_t(rawValue: $0) }
        rd_kafka_mock_push_request_errors_array(cluster, apiKey, codes.count, &codes)
    }

    /// Makes the next `count` requests of one API (ApiKey, e.g. 0 for Produce) that reach
    /// broker `id` fail with broker error `error` after `rttMs`: failure injection for tests
    /// that must hit one topic only (lead its partitions from that broker).
    public func failNextRequests(broker id: Int32, apiKey: Int16, count: Int, error: Int32, rttMs: Int32 = 0)
        throws(KafkaError)
    {
        try KafkaError.check(
            zonestream_mock_broker_push_errors(
                cluster, id, apiKey, count, rd_kafka_resp_err_t(rawValue: error), rttMs),
            "pushing \(count) errors for API \(apiKey) on broker \(id)")
    }

    /// Makes broker `id` the leader of `partition` of `topic`.
    public func setLeader(topic: String, partition: Int32, broker id: Int32) throws(KafkaError) {
        try KafkaError.check(
            rd_kafka_mock_partition_set_leader(cluster, topic, partition, id),
            "moving \(topic) [\(partition)] to broker \(id)")
    }
}

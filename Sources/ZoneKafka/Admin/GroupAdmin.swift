import CRdKafka
import Glibc

/// Consumer groups as their coordinators describe them, through the admin API: how a tool
/// learns whether a group has members without joining it (joining makes every member give up
/// its partitions and take them back).
public enum GroupAdmin {
    /// One group's state and member count.
    public struct Description: Sendable, Equatable {
        public let group: String
        /// The coordinator's word for it: `Empty`, `Stable`, `PreparingRebalance`, `Dead`...
        public let state: String
        public let members: Int

        /// No member holds or is joining the group.
        public var isEmpty: Bool { members == 0 }
    }

    /// Describes `groups`; throws when the broker does not answer. librdkafka's mock cluster
    /// never answers (check ``TopicAdmin/isMockCluster(using:)`` first).
    public static func describe(_ groups: [String], using producer: KafkaProducer, timeoutMs: Int32 = 15_000)
        throws(KafkaError) -> [Description]
    {
        let handle = producer.client.handle
        let queue = rd_kafka_queue_new(handle)
        defer { rd_kafka_queue_destroy(queue) }
        let names = groups.map { strdup($0) }
        defer { for name in names { free(name) } }
        var pointers = names.map { UnsafePointer<CChar>($0) }
        pointers.withUnsafeMutableBufferPointer { buffer in
            rd_kafka_DescribeConsumerGroups(handle, buffer.baseAddress, buffer.count, nil, queue)
        }
        guard let event = rd_kafka_queue_poll(queue, timeoutMs) else {
            throw KafkaError(message: "no answer within \(timeoutMs) ms", operation: "describing groups")
        }
        defer { rd_kafka_event_destroy(event) }
        try KafkaError.check(rd_kafka_event_error(event), "describing groups \(groups)")
        guard let result = rd_kafka_event_DescribeConsumerGroups_result(event) else { return [] }
        var count = 0
        guard let entries = rd_kafka_DescribeConsumerGroups_result_groups(result, &count) else { return [] }
        var descriptions: [Description] = []
        for index in 0..<count {
            guard let entry = entries[index] else { continue }
            let group = String(cString: rd_kafka_ConsumerGroupDescription_group_id(entry))
            if let error = rd_kafka_ConsumerGroupDescription_error(entry) {
                throw KafkaError(rd_kafka_error_code(error), operation: "describing group \(group)")
            }
            descriptions.append(
                Description(
                    group: group,
                    state: String(
                        cString: rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupDescription_state(entry))),
                    members: rd_kafka_ConsumerGroupDescription_member_count(entry)))
        }
        return descriptions
    }
}

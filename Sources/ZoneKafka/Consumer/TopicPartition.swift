import CRdKafka

/// A topic partition, optionally with an offset.
public struct TopicPartition: Hashable, Sendable, CustomStringConvertible {
    public let topic: String
    public let partition: Int32
    /// For commits: the next offset to read. For assignment: where to start
    /// (`TopicPartition.beginning`, `.stored`, or an absolute offset).
    public var offset: Int64

    public static let beginning = Int64(RD_KAFKA_OFFSET_BEGINNING)
    public static let stored = Int64(RD_KAFKA_OFFSET_STORED)

    public init(topic: String, partition: Int32, offset: Int64 = TopicPartition.stored) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
    }

    public var description: String { "\(topic)/\(partition)" }

    /// Hash and equality ignore the offset: a partition is identified by topic and number.
    public static func == (lhs: TopicPartition, rhs: TopicPartition) -> Bool {
        lhs.topic == rhs.topic && lhs.partition == rhs.partition
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(topic)
        hasher.combine(partition)
    }
}

/// One librdkafka topic-partition list, owned.
///
/// - Important: ownership. The list is created here and destroyed in `deinit`, exactly once;
///   ``pointer`` is lent to librdkafka calls (which copy what they keep) and must not outlive
///   this object. Lists librdkafka lends to a callback are read with ``read(_:)`` and never
///   owned.
final class RDKafkaTopicPartitionList {
    let pointer: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>

    init(_ partitions: [TopicPartition]) throws(KafkaError) {
        guard let list = rd_kafka_topic_partition_list_new(Int32(partitions.count)) else {
            throw KafkaError(message: "out of memory", operation: "making a list of \(partitions.count) partitions")
        }
        for entry in partitions {
            rd_kafka_topic_partition_list_add(list, entry.topic, entry.partition).pointee.offset = entry.offset
        }
        pointer = list
    }

    deinit { rd_kafka_topic_partition_list_destroy(pointer) }

    /// The entries, with the offsets librdkafka may have filled in.
    var partitions: [TopicPartition] { Self.read(pointer) }

    /// Reads a list librdkafka owns (e.g. the one a rebalance callback lends).
    static func read(_ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> [TopicPartition] {
        (0..<Int(list.pointee.cnt)).map { index in
            let element = list.pointee.elems[index]
            let topic = element.topic.map { String(cString: $0) } ?? ""
            return TopicPartition(topic: topic, partition: element.partition, offset: element.offset)
        }
    }
}

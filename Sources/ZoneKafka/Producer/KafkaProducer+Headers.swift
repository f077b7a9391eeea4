import CRdKafka

/// One header of a produced record: a name and its bytes. State records name the application
/// that wrote them with one; tools mark what they write (a replay of dead letters).
public struct KafkaHeader: Sendable, Equatable {
    public var name: String
    public var value: [UInt8]

    public init(name: String, value: [UInt8]) {
        self.name = name
        self.value = value
    }
}

extension KafkaProducer {
    /// Queues one copied record with a header, by topic name (librdkafka's `producev`: the
    /// topic-handle call has no headers). Returns librdkafka's answer.
    func send(
        _ topic: String, partition: Int32?, key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?,
        header: KafkaHeader, opaque: UnsafeMutableRawPointer?
    ) -> rd_kafka_resp_err_t {
        header.value.withUnsafeBytes { headerBytes in
            zonestream_produce_with_header(
                client.handle, topic, partition ?? RD_KAFKA_PARTITION_UA, key?.baseAddress, key?.count ?? 0,
                value?.baseAddress, value?.count ?? 0, header.name, headerBytes.baseAddress, headerBytes.count, opaque)
        }
    }
}

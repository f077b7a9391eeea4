import CRdKafka

extension KafkaProducer {
    /// Produces one record with one header (for tools that mark what they write, such as a
    /// replay of dead letters); the processor's own outputs carry none. Retries while
    /// librdkafka's queue is full.
    public func produce(
        topic: String, key: [UInt8]?, value: [UInt8], header: (name: String, value: [UInt8]), tracker: DeliveryTracker
    ) throws(KafkaError) {
        let receipt = Unmanaged.passRetained(
            DeliveryReceipt.make(tracker: tracker, context: nil, partition: nil, inputKey: nil, inputValue: nil))
        tracker.willProduce()
        while true {
            let result = (key ?? []).withUnsafeBytes { keyBytes in
                value.withUnsafeBytes { valueBytes in
                    header.value.withUnsafeBytes { headerBytes in
                        zonestream_produce_with_header(
                            client.handle, topic, key == nil ? nil : keyBytes.baseAddress, key?.count ?? 0,
                            valueBytes.baseAddress, valueBytes.count, header.name, headerBytes.baseAddress,
                            headerBytes.count, receipt.toOpaque())
                    }
                }
            }
            if result == RD_KAFKA_RESP_ERR_NO_ERROR { return }
            if result == RD_KAFKA_RESP_ERR__QUEUE_FULL {
                rd_kafka_poll(client.handle, 10)
                continue
            }
            receipt.release()
            tracker.cancelled()
            throw KafkaError(result, operation: "producing \(value.count) bytes to \(topic)")
        }
    }
}

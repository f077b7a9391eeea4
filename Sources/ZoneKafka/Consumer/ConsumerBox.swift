import CRdKafka
import NIOConcurrencyHelpers

/// The C callbacks' way back to their consumer.
final class ConsumerBox {
    weak var consumer: KafkaConsumer?
    var statistics: (@Sendable (String) -> Void)?
}

/// Hands the statistics JSON to the consumer's handler; returning 0 lets librdkafka free it.
func statisticsCallback(
    _ handle: OpaquePointer?, _ json: UnsafeMutablePointer<CChar>?, _ length: Int, _ opaque: UnsafeMutableRawPointer?
) -> Int32 {
    guard let opaque, let json else { return 0 }
    let box = Unmanaged<ConsumerBox>.fromOpaque(opaque).takeUnretainedValue()
    let text = json.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    box.statistics?(text)
    return 0
}

func rebalanceCallback(
    _ handle: OpaquePointer?, _ error: rd_kafka_resp_err_t,
    _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?, _ opaque: UnsafeMutableRawPointer?
) {
    guard let opaque, let list else { return }
    let box = Unmanaged<ConsumerBox>.fromOpaque(opaque).takeUnretainedValue()
    box.consumer?.rebalance(error, list)
}

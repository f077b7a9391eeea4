import Foundation
import Logging
import Synchronization
import ZoneKafka
import ZoneProcessor

/// The latency floor: the Kafka path a zone change takes, with none of ZoneStream's work. A
/// forwarder with ZoneStream's client settings consumes the paced samples the way a worker
/// does (partitions forwarded to one queue, batches taken as they come) and produces every
/// sample that crosses a zone (``BenchTraffic/crossesZone(_:)``) unchanged to an output topic,
/// which the bench reads like ZoneStream's zone changes. Same traffic, same number of outputs
/// at the same moments, of the same size (padded to `outputBytes`, ZoneStream's mean zone
/// change), same producer and consumer settings: ZoneStream's latency minus this one is what
/// ZoneStream's own work and waits add on this machine and broker.
enum LatencyFloor {
    /// Topics of their own, so the floor never reads ZoneStream's records nor the other way round.
    static let inputTopic = "bench-latency-floor-events"
    static let outputTopic = "bench-latency-floor-out"

    static func measure(
        kafka: KafkaConfiguration, benchKafka: KafkaConfiguration, producer: KafkaProducer, input: String,
        output: String,
        rate: Int, seconds: Int, traffic: LatencyTraffic, outputBytes: Int, logger: Logger
    ) throws -> LatencyRun.Result {
        let consumer = try KafkaConsumer(configuration: kafka, groupID: nil, logger: logger)
        let forwarder = try KafkaProducer(configuration: kafka)
        let queue = consumer.makeQueue(batchSize: 4096)
        let partitions = try ZoneChangeLatencyReader.partitionsAtEnd(of: input, consumer: consumer)
        for partition in partitions { consumer.forward(partition, to: queue) }
        try consumer.assign(partitions)
        let running = Atomic<Bool>(true)
        let refused = Atomic<Int>(0)
        let thread = JoinableThread(name: "zs-bench-floor") {
            while running.load(ordering: .relaxed) {
                queue.consumeBatch(timeoutMs: 100) { record in
                    guard let value = record.value, BenchTraffic.crossesZone(value) else { return }
                    do {
                        try padded(value, to: outputBytes).withUnsafeBytes {
                            try forwarder.produce(topic: output, key: record.key, value: $0, tracker: nil)
                        }
                    } catch {
                        refused.add(1, ordering: .relaxed)
                    }
                }
                forwarder.pollDeliveryReports(timeoutMs: 0)
            }
        }
        defer {
            running.store(false, ordering: .relaxed)
            thread.join()
            consumer.close()
        }
        let result = try LatencyRun.paceAndRead(
            input: input, output: output, benchKafka: benchKafka, producer: producer, rate: rate, seconds: seconds,
            traffic: traffic, logger: logger)
        if refused.load(ordering: .relaxed) > 0 {
            throw BenchError("latency floor: \(refused.load(ordering: .relaxed)) forwarded records refused")
        }
        return result
    }

    /// The sample with a `"pad"` member of `x`s before its closing brace, `bytes` long in all
    /// (unchanged when it is that long already); its `ts` stays the first one the reader finds.
    static func padded(_ value: UnsafeRawBufferPointer, to bytes: Int) -> [UInt8] {
        let member = Array(#","pad":""#.utf8)
        var result = Array(value.dropLast())
        guard bytes > value.count + member.count + 1 else { return Array(value) }
        result += member
        result += [UInt8](repeating: UInt8(ascii: "x"), count: bytes - value.count - member.count - 1)
        result += Array(#""}"#.utf8)
        return result
    }
}

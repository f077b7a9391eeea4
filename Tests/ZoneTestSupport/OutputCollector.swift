import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
public import ZoneKafka
import ZoneProcessor

/// Reads output topics from the beginning (no group) on its own thread and keeps every
/// record, so tests can wait for a condition with a deadline instead of sleeping.
public final class OutputCollector: Sendable {
    public struct Record: Sendable {
        public let topic: String
        public let key: String?
        public let value: String
        public let partition: Int32
        /// A null value (a changelog tombstone).
        public let isTombstone: Bool
        /// The value as read (state records are binary).
        public let bytes: [UInt8]?
        /// The application a state record names in its `zonestream-application` header.
        public let application: String?
    }

    private let consumer: KafkaConsumer
    private let records = NIOLockedValueBox<[Record]>([])
    private let running = Atomic<Bool>(true)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)

    public init(bootstrap: String, topics: [String]) throws {
        var logger = Logger(label: "test-collector")
        logger.logLevel = .warning
        consumer = try KafkaConsumer(
            configuration: KafkaConfiguration(bootstrapServers: bootstrap, clientID: "zs-test-collector"),
            groupID: nil, logger: logger, properties: ["fetch.wait.max.ms": "50"])
        var partitions: [TopicPartition] = []
        for topic in topics {
            for partition in 0..<Int32(try consumer.partitionCount(topic: topic)) {
                partitions.append(TopicPartition(topic: topic, partition: partition, offset: TopicPartition.beginning))
            }
        }
        try consumer.assign(partitions)
        let thread = JoinableThread(name: "zs-test-collect") { [self] in
            while running.load(ordering: .relaxed) {
                consumer.poll(timeoutMs: 50) { record in
                    let entry = Record(
                        topic: record.topic, key: record.key.map { String(decoding: $0, as: UTF8.self) },
                        value: record.value.map { String(decoding: $0, as: UTF8.self) } ?? "",
                        partition: record.partition,
                        isTombstone: record.value == nil, bytes: record.value.map { Array($0) },
                        application: record.header(named: "zonestream-application").map {
                            String(decoding: $0, as: UTF8.self)
                        })
                    records.withLockedValue { $0.append(entry) }
                }
            }
        }
        self.thread.withLockedValue { $0 = thread }
    }

    public func records(_ topic: String) -> [Record] { records.withLockedValue { $0.filter { $0.topic == topic } } }

    /// Waits until `condition` holds or `seconds` pass; returns whether it held.
    @discardableResult
    public func wait(seconds: Double = 30, until condition: (OutputCollector) -> Bool) -> Bool {
        Eventually.holds(within: seconds) { condition(self) }
    }

    /// Waits until every record `topic` holds now has been read (its partitions' ends as of
    /// this call, transaction markers included); returns whether they were within `seconds`.
    public func readToEnd(_ topic: String, seconds: Double = 30) throws -> Bool {
        var ends: [TopicPartition] = []
        for partition in 0..<Int32(try consumer.partitionCount(topic: topic)) {
            let end = try consumer.watermarks(TopicPartition(topic: topic, partition: partition)).high
            ends.append(TopicPartition(topic: topic, partition: partition, offset: end))
        }
        let targets = Dictionary(uniqueKeysWithValues: ends.map { ($0.partition, $0.offset) })
        let asked = ends.map { TopicPartition(topic: topic, partition: $0.partition) }
        return Eventually.holds(within: seconds) {
            guard let positions = try? consumer.positions(asked) else { return false }
            return positions.allSatisfy { targets[$0.partition] == 0 || $0.offset >= (targets[$0.partition] ?? 0) }
        }
    }

    public func stop() {
        running.store(false, ordering: .relaxed)
        thread.withLockedValue { $0 }?.join()
        consumer.close()
    }
}

/// A producer for test input.
public struct TestInput {
    public let producer: KafkaProducer

    public init(bootstrap: String) throws {
        // Room for the hostile corpus's 1 MB values.
        producer = try KafkaProducer(
            configuration: KafkaConfiguration(bootstrapServers: bootstrap, clientID: "zs-test-input"),
            properties: ["message.max.bytes": "4000000"])
    }

    /// `application`: the `zonestream-application` header a state record carries, naming the
    /// application that wrote it (nil: none).
    public func send(
        _ topic: String, key: String?, value: [UInt8]?, partition: Int32? = nil, application: String? = nil
    ) throws {
        try producer.produce(
            topic: topic, key: key.map { Array($0.utf8) }, value: value, tracker: nil, partition: partition,
            header: application.map { KafkaHeader(name: "zonestream-application", value: Array($0.utf8)) })
    }

    public func flush() throws { try producer.flush(timeoutMs: 10_000) }
}

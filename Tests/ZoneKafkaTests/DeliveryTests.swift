import CRdKafka
import Foundation
import Testing
import ZoneBench

@testable import ZoneKafka

/// The Kafka layer's delivery bookkeeping against a broker process: every produced message is
/// counted once, refused ones come back with their payload, origin and tag, and a message
/// refused before it is queued leaves nothing in flight.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct DeliveryTests {
    @Test func permanentAndRetriableErrorsAreToldApart() {
        for code in [10, 18, 29, 31, 87] { #expect(KafkaError.isPermanentDeliveryError(Int32(code)), "\(code)") }
        for code in [
            6, 7, 5, 19, Int(RD_KAFKA_RESP_ERR__MSG_TIMED_OUT.rawValue), Int(RD_KAFKA_RESP_ERR__TRANSPORT.rawValue),
        ] {
            #expect(!KafkaError.isPermanentDeliveryError(Int32(code)), "\(code)")
        }
    }

    @Test func aPartitionListKeepsItsEntries() throws {
        let entries = [
            TopicPartition(topic: "a", partition: 0, offset: 5),
            TopicPartition(topic: "b", partition: 3, offset: TopicPartition.beginning),
        ]
        let list = try RDKafkaTopicPartitionList(entries)
        #expect(list.partitions == entries)
        #expect(list.partitions.map(\.offset) == [5, TopicPartition.beginning])
    }

    @Test func refusedMessagesComeBackWithTheirContext() throws {
        let broker = try BrokerProcess(partitions: 1, extraArguments: ["--brokers", "2"])
        defer { broker.stop() }
        #expect(broker.control("leader zone-changes 2 1"))
        #expect(broker.control("leader workout-events 1 1"))
        let producer = try KafkaProducer(configuration: KafkaConfiguration(bootstrapServers: broker.bootstrapServers))
        // Delivered: counted, nothing refused.
        let tracker = DeliveryTracker()
        try producer.produce(topic: "workout-events", key: Array("k".utf8), value: Array("v".utf8), tracker: tracker)
        try producer.flush(timeoutMs: 10_000)
        #expect(tracker.inFlight == 0 && tracker.deliveredCount == 1 && tracker.takeFailures().isEmpty)

        // Refused by the broker: the failure carries the message and what produced it.
        #expect(broker.control("errors 2 0 1 29"))
        struct Context: Sendable, Equatable {
            let offset: Int64
            let kind: Int
        }
        try producer.produce(
            topic: "zone-changes", key: Array("s1".utf8), value: Array("payload".utf8), tracker: tracker,
            context: Context(offset: 41, kind: 7))
        try producer.flush(timeoutMs: 10_000)
        let failures = tracker.takeFailures()
        #expect(tracker.inFlight == 0 && failures.count == 1)
        let failure = try #require(failures.first)
        #expect(
            failure.topic == "zone-changes" && failure.value == Array("payload".utf8) && failure.key == Array("s1".utf8)
        )
        #expect(failure.error.code == 29 && failure.isPermanent)
        #expect(failure.context as? Context == Context(offset: 41, kind: 7))
        #expect(tracker.takeFailures().isEmpty, "each failure is taken once")

        // Refused before it is queued (over message.max.bytes): thrown, nothing left in flight.
        let huge = [UInt8](repeating: 0x61, count: 2_000_000)
        #expect(throws: KafkaError.self) {
            try producer.produce(topic: "workout-events", key: nil, value: huge, tracker: tracker)
        }
        #expect(tracker.inFlight == 0)
    }
}

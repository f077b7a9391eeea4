import CRdKafka
import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

@testable import ZoneKafka

/// The Kafka layer's delivery bookkeeping against a broker process: every produced message is
/// counted once, refused ones come back with their payload and context, and a message
/// refused before it is queued leaves nothing in flight.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
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

        // Refused by the broker (the next two produce requests): each failure carries the
        // message and the context it was produced with.
        #expect(broker.control("errors 2 0 2 29"))
        struct Context: Sendable, Equatable {
            let offset: Int64
            let kind: Int
        }
        try producer.produce(
            topic: "zone-changes", key: Array("s1".utf8), value: Array("payload".utf8), tracker: tracker,
            context: Context(offset: 41, kind: 7))
        // A message without a key, its value lent as a buffer.
        let second = Array("second".utf8)
        try second.withUnsafeBytes { value in
            try producer.produce(
                topic: "zone-changes", key: nil, value: value, tracker: tracker, context: Context(offset: 42, kind: 7))
        }
        try producer.flush(timeoutMs: 10_000)
        let failures = tracker.takeFailures().sorted { $0.value.count > $1.value.count }
        #expect(tracker.inFlight == 0 && failures.count == 2)
        let failure = try #require(failures.first)
        let keyless = try #require(failures.last)
        #expect(keyless.context as? Context == Context(offset: 42, kind: 7) && keyless.key == nil)
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

    /// An answer its user is still making to a refusal counts as in flight until it is
    /// produced, so an epoch or a transaction waiting on the tracker waits for it.
    @Test func anAnswerInProgressKeepsTheTrackerOpen() {
        let tracker = DeliveryTracker()
        tracker.answerStarted()
        #expect(tracker.inFlight == 1 && tracker.answersInProgress == 1)
        #expect(!tracker.waitForAnswers(timeoutMs: 20), "not produced yet")
        let answered = Thread { tracker.answerProduced() }
        answered.start()
        #expect(tracker.waitForAnswers(timeoutMs: 10_000))
        #expect(tracker.inFlight == 0 && tracker.answersInProgress == 0)
    }

    /// A delivered message's receipt (which holds its context) is freed by the next produce
    /// with its tracker, on the producing thread, or when the tracker goes: never kept longer.
    @Test func deliveredReceiptsAreFreedByTheNextProduceOrWithTheirTracker() throws {
        let broker = try BrokerProcess(partitions: 1)
        defer { broker.stop() }
        let producer = try KafkaProducer(configuration: KafkaConfiguration(bootstrapServers: broker.bootstrapServers))
        final class Marker: Sendable {}
        weak var first: Marker?
        weak var second: Marker?
        var tracker: DeliveryTracker? = DeliveryTracker()
        func produce(_ value: String, _ marker: Marker) throws {
            try producer.produce(
                topic: "workout-events", key: nil, value: Array(value.utf8), tracker: tracker, context: marker)
        }
        do {
            let marker = Marker()
            first = marker
            try produce("a", marker)
        }
        try producer.flush(timeoutMs: 10_000)
        #expect(tracker?.deliveredCount == 1 && first != nil, "delivered, its receipt parked with the tracker")
        do {
            let marker = Marker()
            second = marker
            try produce("b", marker)
        }
        #expect(first == nil, "freed by the next produce with the tracker")
        try producer.flush(timeoutMs: 10_000)
        #expect(tracker?.deliveredCount == 2 && tracker?.inFlight == 0 && second != nil)
        tracker = nil
        #expect(second == nil, "freed with the tracker")
    }
}

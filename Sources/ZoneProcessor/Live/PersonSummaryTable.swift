import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneKafka

/// Every person's latest summary, for the endpoint's `/people/{id}` on any instance: the
/// `person-summaries` topic (compacted, keyed by person) read whole, as a global table, and
/// the last record per person kept as its bytes. A person costs their summary (a few hundred
/// bytes) on every instance that serves the endpoint.
public final class PersonSummaryTable: Sendable {
    private let summaries = NIOLockedValueBox<[String: [UInt8]]>([:])
    private let running = Atomic<Bool>(true)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)

    init() {}

    /// The person's latest `person_summary` as JSON bytes, nil when there is none.
    public func summary(of person: String) -> [UInt8]? { summaries.withLockedValue { $0[person] } }

    /// How many persons the table holds.
    public var count: Int { summaries.withLockedValue { $0.count } }

    /// Starts reading every partition of `configuration.topics.personSummaries` from its start.
    func start(configuration: ProcessorConfiguration, logger: Logger) throws(KafkaError) {
        let topic = configuration.topics.personSummaries
        let consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: nil, logger: logger, properties: PersonStage.lowRateFetching)
        let partitions = try consumer.partitionCount(topic: topic)
        try consumer.assign(
            (0..<Int32(partitions)).map {
                TopicPartition(topic: topic, partition: $0, offset: TopicPartition.beginning)
            })
        let table = self
        thread.withLockedValue {
            $0 = JoinableThread(name: "zs-people-view") {
                while table.running.load(ordering: .relaxed) {
                    consumer.poll(timeoutMs: 100) { record in table.apply(record) }
                }
                consumer.close()
            }
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread.withLockedValue { $0 }?.join()
    }

    private func apply(_ record: KafkaRecord) {
        guard let key = record.key.map({ String(decoding: $0, as: UTF8.self) }) else { return }
        let value = record.value.map { Array($0) }
        summaries.withLockedValue { $0[key] = value }
    }
}

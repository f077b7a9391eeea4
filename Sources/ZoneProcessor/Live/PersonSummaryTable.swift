import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneKafka

/// Every person's latest summary, for the endpoint's `/people/{id}` on any instance: the
/// `person-summaries` topic (compacted, keyed by person) read whole, as a global table, and
/// the last record per person kept as its bytes. A person costs their summary (a few hundred
/// bytes) on every instance that serves the endpoint, up to `max_persons`: past it, persons
/// whose latest summary is 28 days old make room, and a person beyond that is not shown.
public final class PersonSummaryTable: Sendable {
    private let summaries = NIOLockedValueBox<[String: [UInt8]]>([:])
    private let capacity = Atomic<Int>(Int.max)
    private let leftOut = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)

    init() {}

    /// The person's latest `person_summary` as JSON bytes, nil when there is none.
    public func summary(of person: String) -> [UInt8]? { summaries.withLockedValue { $0[person] } }

    /// Summaries of new persons left out because the table was full (`max_persons`).
    public var personsLeftOut: Int { leftOut.load(ordering: .relaxed) }

    /// How many persons the table holds.
    public var count: Int { summaries.withLockedValue { $0.count } }

    /// Starts reading every partition of `configuration.topics.personSummaries` from its start.
    func start(configuration: ProcessorConfiguration, logger: Logger) throws(KafkaError) {
        let topic = configuration.topics.personSummaries
        capacity.store(configuration.maxPersons, ordering: .relaxed)
        let consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: nil, logger: logger, properties: StageFetching.lowRate)
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
        let limit = capacity.load(ordering: .relaxed)
        let fits = summaries.withLockedValue { table in
            if table[key] == nil, value != nil, table.count >= limit {
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                table = table.filter { !Self.isIdle($0.value, now: now) }
                if table.count >= limit { return false }
            }
            table[key] = value
            return true
        }
        if !fits { leftOut.add(1, ordering: .relaxed) }
    }

    /// Whether a summary's `as_of_ts` is 28 days or more before `now`: its windows, counted
    /// back from now, are empty.
    static func isIdle(_ summary: [UInt8], now: Int64) -> Bool {
        let field = Array(#""as_of_ts":"#.utf8)
        guard let start = summary.firstRange(of: field)?.upperBound else { return true }
        var asOf: Int64 = 0
        for byte in summary[start...].prefix(16) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { break }
            asOf = asOf * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return asOf / 86_400_000 <= now / 86_400_000 - 28
    }
}

import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneKafka

/// Every person's (or class's) latest summary, for the endpoint's `/people/{id}` and
/// `/classes/{class}` on any instance: a summaries topic (compacted) read whole, as a global
/// table, and the latest record per person or class kept as its bytes. An entry costs its
/// summary (a few hundred bytes, a class's up to a few KB) on every instance that serves the
/// endpoint, up to `max_persons` (`max_classes`): past it, entries whose latest summary is 28
/// days old make room, and one beyond that is not shown.
public final class SummaryTable: Sendable {
    /// Where a record belongs: `person-summaries` keys by person; `class-summaries` by
    /// `<class>@<day>`, of which a class keeps its latest day.
    enum Keying: Sendable {
        case person
        case classDay

        /// The table key of a record key, and the version a later record must not be below.
        func entry(of recordKey: String) -> (key: String, version: String) {
            switch self {
            case .person: return (recordKey, "")
            case .classDay:
                // `@YYYY-MM-DD`, 11 bytes: a class id may hold `@` itself.
                let utf8 = Array(recordKey.utf8)
                guard utf8.count > 11, utf8[utf8.count - 11] == UInt8(ascii: "@") else { return (recordKey, "") }
                return (
                    String(decoding: utf8.dropLast(11), as: UTF8.self), String(decoding: utf8.suffix(10), as: UTF8.self)
                )
            }
        }
    }

    private let keying: Keying
    private let summaries = NIOLockedValueBox<[String: (version: String, bytes: [UInt8])]>([:])
    private let capacity = Atomic<Int>(Int.max)
    private let leftOut = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)

    init(_ keying: Keying) {
        self.keying = keying
    }

    /// The latest summary of a person (a class: of its latest day) as JSON bytes, nil when there
    /// is none.
    public func summary(of key: String) -> [UInt8]? { summaries.withLockedValue { $0[key]?.bytes } }

    /// Summaries of new persons (classes) left out because the table was full.
    public var entriesLeftOut: Int { leftOut.load(ordering: .relaxed) }

    /// How many persons (classes) the table holds.
    public var count: Int { summaries.withLockedValue { $0.count } }

    /// Starts reading every partition of the table's topic from its start.
    func start(configuration: ProcessorConfiguration, logger: Logger) throws(KafkaError) {
        let topic = keying == .person ? configuration.topics.personSummaries : configuration.topics.classSummaries
        capacity.store(keying == .person ? configuration.maxPersons : configuration.maxClasses, ordering: .relaxed)
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
        guard let recordKey = record.key.map({ String(decoding: $0, as: UTF8.self) }) else { return }
        let (key, version) = keying.entry(of: recordKey)
        let value = record.value.map { Array($0) }
        let limit = capacity.load(ordering: .relaxed)
        let fits = summaries.withLockedValue { table in
            if let held = table[key], held.version > version { return true }  // an earlier day of the class
            if table[key] == nil, value != nil, table.count >= limit {
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                table = table.filter { !Self.isIdle($0.value.bytes, now: now) }
                if table.count >= limit { return false }
            }
            table[key] = value.map { (version, $0) }
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

import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneEngine
import ZoneKafka

/// Every live session of the consumer group, for the endpoint's `/sessions/{id}` and `/board`
/// on any instance: a read-only table built by reading the whole changelog topic, which every
/// worker of every instance already writes once per commit interval with the state of the
/// sessions that changed (and tombstones for those that finished). So there is no RPC, no
/// member-to-member addressing and no extra topic: an instance only reads what the group
/// writes anyway, as fresh as the last commit interval plus one fetch (docs/decisions.md).
/// A session of a crashed instance keeps its last state until its new owner writes it again.
final class GroupLiveTable: Sendable {
    private let entries = NIOLockedValueBox<[String: LiveSessionEntry]>([:])
    private let running = Atomic<Bool>(true)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)

    /// The state of `session` as the group last wrote it, nil when it is not live anywhere.
    func session(_ session: String) -> LiveSessionEntry? { entries.withLockedValue { $0[session] } }

    /// Every live session of the group.
    func allSessions() -> [LiveSessionEntry] { Array(entries.withLockedValue { $0 }.values) }

    /// Starts reading every partition of `configuration.topics.changelog` from its start.
    func start(
        configuration: ProcessorConfiguration, profiles: ProfileTable, revisions: @escaping @Sendable () -> UInt64, logger: Logger) throws(KafkaError) {
        let topic = configuration.topics.changelog
        let consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: nil, logger: logger, properties: ["fetch.wait.max.ms": "100"])
        let partitions = try consumer.partitionCount(topic: topic)
        try consumer.assign((0..<Int32(partitions)).map { TopicPartition(topic: topic, partition: $0, offset: TopicPartition.beginning) })
        let table = self
        thread.withLockedValue {
            $0 = JoinableThread(name: "zs-group-live") {
                while table.running.load(ordering: .relaxed) {
                    consumer.poll(timeoutMs: 100) { record in table.apply(record, profiles: profiles, revision: revisions()) }
                }
                consumer.close()
            }
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread.withLockedValue { $0 }?.join()
    }

    private func apply(_ record: KafkaRecord, profiles: ProfileTable, revision: UInt64) {
        // A record this version cannot read is skipped here: the restore reports it.
        guard let decoded = try? ChangelogRecord.decode(key: record.key, value: record.value) else { return }
        entries.withLockedValue { entries in
            switch decoded {
            case .session(let session, _):
                entries[session.id] = LiveSessionEntry(session, profiles: profiles, revision: revision, partition: record.partition)
            case .finished(let id, _, _):
                entries[id] = nil
            case .removed(let key):
                if !key.hasPrefix(ChangelogRecord.finishedPrefix) { entries[key] = nil }
            }
        }
    }
}

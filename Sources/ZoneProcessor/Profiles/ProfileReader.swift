import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Reads every partition of `zone-profiles` from the beginning into a ``ProfileTable`` on its
/// own thread, and says when it has caught up with what was there at start.
final class ProfileReader: Sendable {
    private let consumer: KafkaConsumer
    private let table: ProfileTable
    private let topic: String
    private let logger: Logger
    private let running = Atomic<Bool>(true)
    private let caughtUp = Atomic<Bool>(false)
    /// Per partition: the high watermark at start, still to be reached.
    private let targets: NIOLockedValueBox<[Int32: Int64]>
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)
    /// The table's partitions.
    let partitions: [Int32]
    /// Per partition, the next offset whose record is applied (or skipped as a marker): written
    /// by the reader's thread after each record, read by workers joining as of an event.
    private let applied = NIOLockedValueBox<[Int32: Int64]>([:])
    private let metrics: ProcessorMetrics
    /// Refused profiles, logged once per interval with their count (only the reader's thread).
    private let refusals = NIOLockedValueBox(RepeatedWarning("profile table full; a new person's profile is refused"))

    init(configuration: ProcessorConfiguration, table: ProfileTable, metrics: ProcessorMetrics, logger: Logger) throws {
        self.table = table
        self.metrics = metrics
        self.topic = configuration.topics.zoneProfiles
        self.logger = logger
        // Fetch promptly: a profile should be in the table before its sessions start.
        consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: nil, logger: logger, properties: ["fetch.wait.max.ms": "50"])
        let count = try consumer.partitionCount(topic: topic)
        partitions = Array(0..<Int32(count))
        var targets: [Int32: Int64] = [:]
        for partition in 0..<Int32(count) {
            let high = try consumer.watermarks(TopicPartition(topic: topic, partition: partition)).high
            if high > 0 { targets[partition] = high }
        }
        self.targets = NIOLockedValueBox(targets)
        try consumer.assign(
            (0..<Int32(count)).map { TopicPartition(topic: topic, partition: $0, offset: TopicPartition.beginning) })
        caughtUp.store(targets.isEmpty, ordering: .releasing)
    }

    var isCaughtUp: Bool { caughtUp.load(ordering: .acquiring) }

    func start() {
        let thread = JoinableThread(name: "zs-profiles") { [self] in
            var decoder = ProfileDecoder()
            while running.load(ordering: .relaxed) {
                var read = false
                consumer.poll(timeoutMs: 100) { record in
                    apply(record, decoder: &decoder)
                    read = true
                }
                // Nothing more to read for now: the consumer's positions also step over
                // transaction markers, which no record reports.
                if !read { publishPositions() }
            }
        }
        self.thread.withLockedValue { $0 = thread }
    }

    /// Waits until the table holds what the topic held at start, or `timeoutMs` passes.
    /// Gives up early when `stopped` says so.
    func waitUntilCaughtUp(timeoutMs: Int, unless stopped: () -> Bool = { false }) -> Bool {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while !isCaughtUp && Date() < deadline && !stopped() { Thread.sleep(forTimeInterval: 0.01) }
        return isCaughtUp
    }

    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        thread.withLockedValue { $0 }?.join()
        consumer.close()
    }

    private func publishPositions() {
        let list = partitions.map { TopicPartition(topic: topic, partition: $0) }
        guard let positions = try? consumer.positions(list) else { return }
        applied.withLockedValue { applied in
            for position in positions where position.offset > (applied[position.partition] ?? 0) {
                applied[position.partition] = position.offset
            }
        }
    }

    /// The table's end offsets now (read_committed: the last stable offsets), asked of the
    /// brokers; nil when they did not answer in `timeoutMs`.
    func endOffsets(timeoutMs: Int32) -> [Int32: Int64]? {
        let latest = partitions.map { TopicPartition(topic: topic, partition: $0, offset: -1) }
        guard let ends = try? consumer.offsets(forTimes: latest, timeoutMs: timeoutMs) else { return nil }
        return Dictionary(ends.map { ($0.partition, $0.offset) }, uniquingKeysWith: max)
    }

    /// Whether every record below `ends` has been applied.
    func hasApplied(through ends: [Int32: Int64]) -> Bool {
        applied.withLockedValue { applied in ends.allSatisfy { $0.value <= 0 || (applied[$0.key] ?? 0) >= $0.value } }
    }

    /// A new person past `max_profiles`: counted, and logged once per interval.
    private func refused() {
        metrics.countProfileRefused()
        let limit = table.limit
        refusals.withLockedValue { $0.log(to: logger, metadata: ["max_profiles": .stringConvertible(limit)]) }
    }

    private func apply(_ record: KafkaRecord, decoder: inout ProfileDecoder) {
        let key = record.key.map { String(decoding: $0, as: UTF8.self) }
        switch decoder.decode(value: record.value, key: key) {
        case .success(.upsert(let profile)):
            if !table.upsert(profile) { refused() }
        case .success(.delete(let person)): table.delete(person)
        case .failure(let rejection):
            logger.warning("profile record ignored", metadata: ["reason": "\(rejection.reason.rawValue)"])
        }
        let partition = record.partition
        let offset = record.offset
        applied.withLockedValue { $0[partition] = max($0[partition] ?? 0, offset + 1) }
        let done = targets.withLockedValue { targets -> Bool in
            if let target = targets[partition], offset + 1 >= target { targets[partition] = nil }
            return targets.isEmpty
        }
        if done { caughtUp.store(true, ordering: .releasing) }
    }
}

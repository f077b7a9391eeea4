import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneKafka

/// Reads every partition of a compacted table topic (`zone-profiles`, `class-plans`) from the
/// beginning on its own thread, handing each record to `apply`; says when it has caught up with
/// what the topic held at start, and whether it has applied everything up to given offsets (for
/// reading the table as of an event, ``TableProber``).
final class TableReader: Sendable {
    let topic: String
    private let consumer: KafkaConsumer
    private let apply: @Sendable (KafkaRecord) -> Void
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

    init(
        topic: String, configuration: ProcessorConfiguration, logger: Logger,
        apply: @escaping @Sendable (KafkaRecord) -> Void
    ) throws {
        self.topic = topic
        self.apply = apply
        // Fetch promptly: a table's record should be read before the sessions that use it start.
        consumer = try KafkaConsumer(
            configuration: configuration.kafka, groupID: nil, logger: logger, properties: ["fetch.wait.max.ms": "50"])
        let count = try consumer.partitionCount(topic: topic)
        partitions = Array(0..<Int32(count))
        var targets: [Int32: Int64] = [:]
        for partition in partitions {
            let high = try consumer.watermarks(TopicPartition(topic: topic, partition: partition)).high
            if high > 0 { targets[partition] = high }
        }
        self.targets = NIOLockedValueBox(targets)
        try consumer.assign(
            partitions.map { TopicPartition(topic: topic, partition: $0, offset: TopicPartition.beginning) })
        caughtUp.store(targets.isEmpty, ordering: .releasing)
    }

    var isCaughtUp: Bool { caughtUp.load(ordering: .acquiring) }

    func start(name: String) {
        let thread = JoinableThread(name: name) { [self] in
            while running.load(ordering: .relaxed) {
                var read = false
                consumer.poll(timeoutMs: 100) { record in
                    handle(record)
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

    private func handle(_ record: KafkaRecord) {
        apply(record)
        let partition = record.partition
        let offset = record.offset
        applied.withLockedValue { $0[partition] = max($0[partition] ?? 0, offset + 1) }
        let done = targets.withLockedValue { targets -> Bool in
            if let target = targets[partition], offset + 1 >= target { targets[partition] = nil }
            return targets.isEmpty
        }
        if done { caughtUp.store(true, ordering: .releasing) }
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

    /// Whether every record below `ends` has been applied.
    func hasApplied(through ends: [Int32: Int64]) -> Bool {
        applied.withLockedValue { applied in ends.allSatisfy { $0.value <= 0 || (applied[$0.key] ?? 0) >= $0.value } }
    }
}

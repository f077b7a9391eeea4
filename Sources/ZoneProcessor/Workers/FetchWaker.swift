import Dispatch
import Foundation
import Synchronization
import ZoneKafka

/// Wakes the group consumer's fetchers when a worker is about to run out of records while the
/// brokers still hold a backlog for it.
///
/// Once a worker's queue holds `queued.min.messages` or `queued.max.messages.kbytes`,
/// librdkafka 2.0 stops fetching the partitions forwarded to it and looks at them again only
/// when its broker thread wakes: on a response, a request, or after a second. With one worker,
/// or when every worker's queue is full at once, nothing wakes it: a worker catching up a
/// backlog emptied its queue in a fraction of that second and then waited out the rest (one
/// worker read the gym backlog at 0.6 of the speed it reads it kept fed:
/// benchmarks/results/fetch-waker.json). Any request through the consumer wakes the broker
/// threads it goes to, which then fetch again; so when a queue runs low while records wait on
/// the brokers, this asks those partitions' end offsets (one small request to each leader,
/// answer unused), at most every ``minimumIntervalMs``. It runs on a thread of its own: no
/// worker waits on it.
final class FetchWaker: Sendable {
    private let consumer: KafkaConsumer
    private let queues: [KafkaQueue]
    private let partitions: [TopicPartition]
    /// Below this many records a queue is running low: a worker's batch.
    private let lowWater: Int
    private let metrics: ProcessorMetrics
    private let running = Atomic<Bool>(true)
    private let thread = Mutex<JoinableThread?>(nil)

    /// How often the queues are looked at while a backlog is read and otherwise, and the least
    /// time between two wakes.
    static let checkIntervalMs = 10
    static let idleIntervalMs = 100
    static let minimumIntervalMs = 20
    /// How long a wake's request may take; its answer is not needed, only that it was sent.
    static let requestTimeoutMs: Int32 = 1000

    init(
        consumer: KafkaConsumer, queues: [KafkaQueue], topic: String, partitionCount: Int, batchSize: Int,
        metrics: ProcessorMetrics
    ) {
        self.consumer = consumer
        self.queues = queues
        self.partitions = (0..<Int32(partitionCount)).map { TopicPartition(topic: topic, partition: $0, offset: -1) }
        self.lowWater = max(1, batchSize)
        self.metrics = metrics
    }

    func start() {
        let thread = JoinableThread(name: "zs-fetch-waker") { [self] in
            var lastWakeNs: UInt64 = 0
            var intervalMs = Self.idleIntervalMs
            while running.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: Double(intervalMs) / 1000)
                let found = look()
                intervalMs = found.readingBacklog ? Self.checkIntervalMs : Self.idleIntervalMs
                let now = DispatchTime.now().uptimeNanoseconds
                guard !found.partitionsToWake.isEmpty, now - lastWakeNs >= UInt64(Self.minimumIntervalMs) * 1_000_000
                else { continue }
                lastWakeNs = now
                _ = try? consumer.offsets(forTimes: found.partitionsToWake, timeoutMs: Self.requestTimeoutMs)
                metrics.countFetchWake()
            }
        }
        self.thread.withLock { $0 = thread }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread.withLock { $0 }?.join()
    }

    /// What one look at the queues found: the partitions whose fetchers to wake (none: no
    /// wake), and whether a backlog is being read (the next look then comes sooner).
    private struct Look {
        var partitionsToWake: [TopicPartition] = []
        var readingBacklog = false
    }

    /// Wakes the consumer's partitions with records left on the brokers when some queue runs
    /// low and the brokers hold more than a batch that no queue holds yet. From the queues'
    /// lengths, librdkafka's positions and the watermarks it cached: no request.
    private func look() -> Look {
        let queued = queues.map(\.length)
        // Every queue holds a batch or more: a backlog is read and no worker runs dry yet.
        guard queued.contains(where: { $0 < lowWater }) else { return Look(readingBacklog: true) }
        guard let positions = try? consumer.positions(partitions) else { return Look() }
        var behind: [TopicPartition] = []
        var records = 0
        for position in positions where position.offset >= 0 {
            guard let high = consumer.knownWatermarks(position)?.high, high > position.offset else { continue }
            records += Int(high - position.offset)
            behind.append(TopicPartition(topic: position.topic, partition: position.partition, offset: -1))
        }
        guard records - queued.reduce(0, +) > lowWater else { return Look() }
        return Look(partitionsToWake: behind, readingBacklog: true)
    }
}

import Dispatch
import Foundation
import Logging
import Synchronization
import ZoneKafka

/// Advances ``TableCoverage`` on a thread of its own, so no worker ever waits on the network
/// for a table (contract, section 1: tables read as of the event).
///
/// A round pairs offsets of `workout-events` known to exist now (the high watermarks
/// librdkafka cached from the workers' last fetch responses, and the offsets workers asked
/// for) with one request for the end offsets of every table partition, sent after they were
/// read. A record below such an offset reached `workout-events` before the request reached the
/// brokers, so every table record that came before it lies below those ends: once the table
/// readers have applied them, the round publishes the offsets as covered. Rounds run when a
/// worker asks and otherwise every ``intervalMs`` while records arrive; one whose brokers do not
/// answer is tried again until they do, and while they have not answered for longer than
/// `join_wait_ms` session starts do not wait (``TableCoverage/isStalled(waitMs:nowNs:)``).
final class TableProber: Sendable {
    private let coverage: TableCoverage
    private let readers: [TableReader]
    /// Asks for the tables' end offsets: no group, no fetches, so its requests queue behind nothing.
    private let client: KafkaConsumer
    /// The workers' group consumer, whose cached high watermarks are read (no request).
    private let groupConsumer: KafkaConsumer
    private let inputTopic: String
    private let inputPartitions: [Int32]
    private let metrics: ProcessorMetrics
    private let logger: Logger
    private let running = Atomic<Bool>(true)
    private let thread = Mutex<JoinableThread?>(nil)

    /// How often a round runs without a demand, keeping the coverage near the input's end.
    static let intervalMs = 20
    /// How long one end-offsets request may take before it is sent again.
    static let requestTimeoutMs: Int32 = 5000

    init(
        coverage: TableCoverage, readers: [TableReader], groupConsumer: KafkaConsumer,
        configuration: ProcessorConfiguration, metrics: ProcessorMetrics, logger: Logger
    ) throws {
        self.coverage = coverage
        self.readers = readers
        self.groupConsumer = groupConsumer
        self.metrics = metrics
        self.logger = logger
        inputTopic = configuration.topics.workoutEvents
        client = try KafkaConsumer(configuration: configuration.kafka, groupID: nil, logger: logger)
        inputPartitions = Array(0..<Int32(try client.partitionCount(topic: inputTopic)))
        // One request before the workers start: the client connects to the tables' leaders now,
        // so the first session start does not wait for its connections (on a loaded machine
        // that took longer than join_wait_ms).
        _ = try? client.offsets(forTimes: latestOfEveryTable, timeoutMs: Self.requestTimeoutMs)
    }

    /// Every table partition, at its end.
    private var latestOfEveryTable: [TopicPartition] {
        readers.flatMap { reader in
            reader.partitions.map { TopicPartition(topic: reader.topic, partition: $0, offset: -1) }
        }
    }

    func start() {
        let thread = JoinableThread(name: "zs-table-prober") { [self] in
            while running.load(ordering: .relaxed) {
                _ = coverage.wake.wait(timeout: .now() + .milliseconds(Self.intervalMs))
                guard running.load(ordering: .relaxed) else { break }
                runRound()
            }
        }
        self.thread.withLock { $0 = thread }
    }

    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        coverage.wake.signal()
        thread.withLock { $0 }?.join()
        client.close()
    }

    /// One round: candidates first, then the ends, then the readers; publishes on success.
    private func runRound() {
        let demanded = coverage.takeDemands()
        var candidates = demanded
        for partition in inputPartitions {
            guard
                let high = groupConsumer.knownWatermarks(TopicPartition(topic: inputTopic, partition: partition))?.high
            else { continue }
            candidates[partition] = max(candidates[partition] ?? 0, high)
        }
        guard !coverage.covers(candidates) else { return }
        let started = DispatchTime.now().uptimeNanoseconds
        while running.load(ordering: .relaxed) {
            coverage.requestSent(atNs: DispatchTime.now().uptimeNanoseconds)
            guard let ends = tableEnds() else {
                metrics.countProbeFailure()
                // Refused at once (no leader, the broker gone): not a tight loop.
                _ = coverage.wake.wait(timeout: .now() + .milliseconds(100))
                continue
            }
            coverage.answered()
            guard waitUntilApplied(ends) else { break }
            coverage.publish(candidates)
            metrics.recordProbe(nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
            return
        }
        coverage.restore(demands: demanded)
    }

    /// The end offsets (read_committed: the last stable offsets) of every table partition, in
    /// one request to each leader; nil when the brokers did not answer in time.
    private func tableEnds() -> [String: [Int32: Int64]]? {
        let ends: [TopicPartition]
        do {
            ends = try client.offsets(forTimes: latestOfEveryTable, timeoutMs: Self.requestTimeoutMs)
        } catch {
            logger.warning(
                "the brokers did not answer the tables' end offsets; session starts are held until they do, at most join_wait_ms",
                metadata: ["error": "\(error)"])
            return nil
        }
        var byTopic: [String: [Int32: Int64]] = [:]
        for end in ends { byTopic[end.topic, default: [:]][end.partition] = end.offset }
        return byTopic
    }

    /// Waits until each reader has applied its table's `ends`; false when the prober stopped.
    private func waitUntilApplied(_ ends: [String: [Int32: Int64]]) -> Bool {
        let started = DispatchTime.now().uptimeNanoseconds
        var warned = false
        while running.load(ordering: .relaxed) {
            if readers.allSatisfy({ $0.hasApplied(through: ends[$0.topic] ?? [:]) }) { return true }
            if !warned && DispatchTime.now().uptimeNanoseconds - started > 1_000_000_000 {
                warned = true
                logger.warning(
                    "the table readers are more than a second behind the tables' end offsets",
                    metadata: ["ends": "\(ends)"])
            }
            Thread.sleep(forTimeInterval: 0.0002)
        }
        return false
    }
}

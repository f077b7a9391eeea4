import CRdKafka
public import Logging
import NIOConcurrencyHelpers
import Synchronization

/// What a consumer-group member is told on a rebalance. Called on the thread that polls
/// the consumer, inside the rebalance: when `revoked` returns, the partitions are released,
/// so it must finish (commit) the work of those partitions before returning.
public protocol RebalanceListener: AnyObject, Sendable {
    func assigned(_ partitions: [TopicPartition], consumer: KafkaConsumer)
    func revoked(_ partitions: [TopicPartition], consumer: KafkaConsumer)
}

/// A consumer-group member (or, without a group, a consumer of assigned partitions).
///
/// Records are not read from here: partitions are forwarded to ``KafkaQueue``s that worker
/// threads consume. ``poll(timeoutMs:)`` serves rebalances and errors on the control thread.
///
/// `@unchecked Sendable`: the handle is thread-safe; `listener` is behind a lock; `closed` and
/// `box` are written only by `init`, `subscribe` and `close`, which the owner calls from one thread.
public final class KafkaConsumer: @unchecked Sendable {
    let client: RDKafkaClient
    let logger: Logger
    /// Set by ``subscribe(_:listener:)``, cleared by ``close()``, read by the rebalance callback.
    let listener = NIOLockedValueBox<(any RebalanceListener)?>(nil)
    private var closed = false
    /// Set when the broker answers a commit with REBALANCE_IN_PROGRESS, cleared by the next
    /// rebalance callback (the member is then in the group's new generation).
    let commitsHeld = Atomic<Bool>(false)

    /// Defaults below the user's settings: manual commits, start at the beginning, and short
    /// fetch waits, since live screens want zone changes within milliseconds. The assignment
    /// strategy is librdkafka's (eager) unless the user's settings name another.
    public static let defaultProperties: [String: String] = [
        // A broker that cuts an empty fetch's wait short when data arrives (Kafka) makes this
        // only the pace of empty fetches of an idle consumer; the mock waits it out in full,
        // so it is on every sample's path there: 10 ms gave p99 26-28 ms at 100,000 samples/s,
        // 3 ms gives 20 ms (docs/explanation/design-decisions.md).
        "fetch.wait.max.ms": "3",
        "enable.auto.commit": "false",
        "enable.auto.offset.store": "false",
        "auto.offset.reset": "earliest",
        "enable.partition.eof": "false",
        // How much librdkafka pre-fetches. Partitions are forwarded to a worker's queue, and
        // librdkafka 2.0 checks these limits against that shared queue (a forwarded queue's
        // length is its destination's). Once a limit is reached it stops fetching those
        // partitions until its broker thread wakes, up to 1 s later (fetch.queue.backoff.ms
        // only arrived in 2.1.1): a worker that empties its queue sooner waits out the rest
        // unless something wakes that thread (the processor's FetchWaker does). These limits
        // bound the memory: 64 MB per worker queue (plus one fetch's overshoot).
        "queued.min.messages": "1000000",
        "queued.max.messages.kbytes": "65536",
    ]

    /// `statistics`: called with librdkafka's statistics JSON every `statistics.interval.ms`
    /// (a property; off when 0), on the thread that calls ``poll(timeoutMs:_:)``.
    public init(
        configuration: KafkaConfiguration, groupID: String?, logger: Logger,
        properties: [String: String] = [:], statistics: (@Sendable (String) -> Void)? = nil
    ) throws(KafkaError) {
        var defaults = Self.defaultProperties.merging(properties) { _, new in new }
        // librdkafka 2.0 refuses rd_kafka_assign without a group id ("Unknown group"), so a
        // reader that only assigns gets a private one; it never joins it nor commits to it.
        defaults["group.id"] = groupID ?? "zonestream-reader-\(UInt64.random(in: 0...UInt64.max))"
        let conf = try configuration.makeNativeConfiguration(defaults: defaults)
        let box = ConsumerBox()
        box.statistics = statistics
        rd_kafka_conf_set_opaque(conf, Unmanaged.passUnretained(box).toOpaque())
        if groupID != nil { rd_kafka_conf_set_rebalance_cb(conf, rebalanceCallback) }
        if statistics != nil { rd_kafka_conf_set_stats_cb(conf, statisticsCallback) }
        self.client = try RDKafkaClient(
            type: RD_KAFKA_CONSUMER, configuration: conf, logger: configuration.logger ?? logger)
        self.logger = logger
        box.consumer = self
        self.box = box
        rd_kafka_poll_set_consumer(client.handle)
    }

    /// Holds the back-reference the C callback needs; lives as long as the consumer.
    private var box: ConsumerBox?

    /// Joins the group for `topics`; assignments arrive through `listener`.
    public func subscribe(_ topics: [String], listener: any RebalanceListener) throws(KafkaError) {
        self.listener.withLockedValue { $0 = listener }
        let list = try RDKafkaTopicPartitionList(
            topics.map { TopicPartition(topic: $0, partition: Int32(RD_KAFKA_PARTITION_UA)) })
        try KafkaError.check(rd_kafka_subscribe(client.handle, list.pointer), "subscribing to \(topics)")
    }

    /// Reads `partitions` without a group (e.g. a table every instance reads whole).
    public func assign(_ partitions: [TopicPartition]) throws(KafkaError) {
        let list = try RDKafkaTopicPartitionList(partitions)
        try KafkaError.check(rd_kafka_assign(client.handle, list.pointer), "assigning \(partitions.count) partitions")
    }

    /// Adds `partitions` to what this consumer reads without a group, each from its offset,
    /// leaving the others where they are.
    public func addAssignment(_ partitions: [TopicPartition]) throws(KafkaError) {
        try changeAssignment(partitions, operation: "adding", rd_kafka_incremental_assign)
    }

    /// Stops reading `partitions` (their pre-fetched records are dropped), leaving the others.
    public func removeAssignment(_ partitions: [TopicPartition]) throws(KafkaError) {
        try changeAssignment(partitions, operation: "removing", rd_kafka_incremental_unassign)
    }

    private func changeAssignment(
        _ partitions: [TopicPartition], operation: String,
        _ change: (OpaquePointer?, UnsafePointer<rd_kafka_topic_partition_list_t>?) -> OpaquePointer?
    ) throws(KafkaError) {
        let list = try RDKafkaTopicPartitionList(partitions)
        let operation = "\(operation) \(partitions.count) partitions"
        if let error = KafkaError(taking: change(client.handle, list.pointer), operation: operation) { throw error }
    }

    /// Serves rebalance callbacks and consumer errors; records only appear here for partitions
    /// that were not forwarded to a queue (they are handed to `body`).
    public func poll(timeoutMs: Int32, _ body: (KafkaRecord) -> Void = { _ in }) {
        guard let message = rd_kafka_consumer_poll(client.handle, timeoutMs) else { return }
        defer { rd_kafka_message_destroy(message) }
        let record = KafkaRecord(message)
        if let error = record.error {
            if let fatal = fatalError {
                logger.error("consumer failed for good", metadata: ["error": "\(fatal)"])
            } else {
                logger.debug("consumer event", metadata: ["error": "\(error)"])
            }
            return
        }
        body(record)
    }

    /// The error that ended this consumer for good, if one did (librdkafka's fatal error: for
    /// a static group member, another instance started with its `group.instance.id`). Such a
    /// consumer is fenced: it gets no more records, and only a new one can go on.
    public var fatalError: KafkaError? {
        var text = [CChar](repeating: 0, count: 512)
        let code = rd_kafka_fatal_error(client.handle, &text, text.count)
        guard code != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        let reason = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return KafkaError(code: code.rawValue, message: reason, operation: "consuming")
    }

    /// A new queue for one worker thread, consuming up to `batchSize` records at a time.
    public func makeQueue(batchSize: Int = 1024) -> KafkaQueue {
        KafkaQueue(client: client, handle: rd_kafka_queue_new(client.handle), batchSize: batchSize)
    }

    /// Sends a partition's records to `queue` from now on.
    public func forward(_ partition: TopicPartition, to queue: KafkaQueue) {
        guard let partitionQueue = rd_kafka_queue_get_partition(client.handle, partition.topic, partition.partition)
        else { return }
        rd_kafka_queue_forward(partitionQueue, queue.handle)
        rd_kafka_queue_destroy(partitionQueue)
    }

    /// Stops forwarding a partition's records (before it is released).
    public func stopForwarding(_ partition: TopicPartition) {
        guard let partitionQueue = rd_kafka_queue_get_partition(client.handle, partition.topic, partition.partition)
        else { return }
        rd_kafka_queue_forward(partitionQueue, nil)
        rd_kafka_queue_destroy(partitionQueue)
    }

    /// Commits `offsets` (each the next offset to read) and waits for the broker's answer.
    ///
    /// While the group rebalances (from a commit the broker refused as REBALANCE_IN_PROGRESS
    /// until the next rebalance callback) a commit is not sent but throws that error at once: sent
    /// then, it could carry a generation the broker has just replaced, and librdkafka takes an
    /// ILLEGAL_GENERATION answer for a lost assignment, so a cooperative member would give up all
    /// its partitions instead of the few that move.
    public func commit(_ offsets: [TopicPartition]) throws(KafkaError) {
        guard !offsets.isEmpty else { return }
        let operation = "committing \(offsets.count) offsets"
        try checkCommitsNotHeld(operation)
        let list = try RDKafkaTopicPartitionList(offsets)
        let result = rd_kafka_commit(client.handle, list.pointer, 0)
        if result == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS { commitsHeld.store(true, ordering: .releasing) }
        try KafkaError.check(result, operation)
    }

    /// Throws REBALANCE_IN_PROGRESS at once while commits are held (see ``commit(_:)``).
    func checkCommitsNotHeld(_ operation: String) throws(KafkaError) {
        guard commitsHeld.load(ordering: .acquiring) else { return }
        throw KafkaError(
            RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS, operation: operation + " (held until the group's rebalance ends)")
    }

    /// The committed offsets of `partitions` (the next offset to read; negative when none).
    public func committed(_ partitions: [TopicPartition], timeoutMs: Int32 = 5000) throws(KafkaError)
        -> [TopicPartition]
    {
        let list = try RDKafkaTopicPartitionList(partitions)
        try KafkaError.check(rd_kafka_committed(client.handle, list.pointer, timeoutMs), "reading committed offsets")
        return list.partitions
    }

    /// The next offset this consumer will read in each partition (librdkafka's position; with
    /// `read_committed`, past the markers and aborted records it skipped); negative before
    /// anything was read.
    public func positions(_ partitions: [TopicPartition]) throws(KafkaError) -> [TopicPartition] {
        let list = try RDKafkaTopicPartitionList(partitions)
        try KafkaError.check(rd_kafka_position(client.handle, list.pointer), "reading positions")
        return list.partitions
    }

    /// Partition count of a topic, from metadata.
    public func partitionCount(topic: String) throws(KafkaError) -> Int { try client.partitionCount(topic: topic) }

    /// The low and high watermarks librdkafka last learned from fetch responses, without asking
    /// the broker (cheap enough to call every second); nil while none was received.
    public func knownWatermarks(_ partition: TopicPartition) -> (low: Int64, high: Int64)? {
        var low: Int64 = 0
        var high: Int64 = 0
        let code = rd_kafka_get_watermark_offsets(client.handle, partition.topic, partition.partition, &low, &high)
        guard code == RD_KAFKA_RESP_ERR_NO_ERROR, high >= 0 else { return nil }
        return (low, high)
    }

    /// Low and high watermarks of a partition.
    public func watermarks(_ partition: TopicPartition, timeoutMs: Int32 = 5000) throws(KafkaError) -> (
        low: Int64, high: Int64
    ) {
        try client.watermarks(topic: partition.topic, partition: partition.partition, timeoutMs: timeoutMs)
    }

    /// Leaves the group (running the final revocation) and stops fetching. Idempotent.
    public func close() {
        guard !closed else { return }
        closed = true
        rd_kafka_consumer_close(client.handle)
        // The listener usually holds what holds this consumer; let the cycle go.
        listener.withLockedValue { $0 = nil }
    }

    /// The group protocol in effect: `eager`, `cooperative`, or `none` outside a group.
    public var rebalanceProtocol: String {
        rd_kafka_rebalance_protocol(client.handle).map { String(cString: $0).lowercased() } ?? "none"
    }
}

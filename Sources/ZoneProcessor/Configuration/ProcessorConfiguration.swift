public import ZoneEngine
public import ZoneKafka

/// Everything the processor needs to run; loaded from config/zonestream.yaml, the
/// environment and flags by the command line (see docs/configuration.md).
public struct ProcessorConfiguration: Sendable {
    /// The cluster. Nil bootstrap servers in the file means: start an embedded broker.
    public var kafka: KafkaConfiguration
    /// The consumer group all instances share (`group_id`).
    public var groupID = "zonestream"
    public var topics = Topics()
    /// Worker threads; each owns the sessions of the partitions given to it (`workers`).
    public var workers = 2
    /// How often each worker commits the input offsets whose outputs are delivered (`commit_interval_ms`).
    public var commitIntervalMs = 1000
    /// Values over this size are dead-lettered as `too_large` (`max_message_bytes`).
    public var maxMessageBytes = 65_536
    /// Counting rules: max gap, damping, normalization, idle timeout, retention.
    public var engine = EngineSettings()
    /// The cap on live sessions per instance (`max_live_sessions`): a new session over it is
    /// dead-lettered as `session_limit`, so a flood of new ids cannot exhaust memory.
    public var maxLiveSessions = 1_000_000
    /// At-least-once (default) or exactly-once through Kafka transactions (`processing_guarantee`).
    public var guarantee = ProcessingGuarantee.atLeastOnce
    /// Exactly-once: each worker's transactional.id is this plus `-w<index>`
    /// (`transactional_id_prefix`); keep it stable per instance across restarts.
    public var transactionalIDPrefix = "zonestream"
    /// The session snapshot format written to the changelog (`changelog.snapshot_format`): 2,
    /// or 1 during a rolling upgrade from a release that reads only format 1 (no class and no
    /// effort are kept then). Every format is read.
    public var snapshotFormat = WorkoutSession.snapshotVersion
    /// Records a worker takes from librdkafka at once (`batch_size`).
    public var batchSize = 4096
    /// How long to wait at start for the profile table to catch up (`profiles_catch_up_ms`).
    public var profilesCatchUpMs = 30_000
    /// How often freed memory the allocator keeps is given back to the system
    /// (`memory.trim_interval_ms`; 0: never). See ``HeapTrimmer``.
    public var heapTrimIntervalMs = 5_000
    /// Create missing topics through the admin API at start, with this many partitions
    /// (`create_topics.partitions`; 0: do not create, as on the embedded broker, which does not
    /// answer CreateTopics).
    public var createTopicPartitions = 8
    /// Replication factor of created topics (`create_topics.replication_factor`).
    public var createTopicReplication = 1
    /// Publish each live session's state to ``ZoneProcessor/sessionDirectory`` at every commit
    /// interval (for the operator's endpoint); off, the workers skip that work.
    public var publishesLiveSessions = false
    /// How often librdkafka reports statistics, from which consumer lag is exported
    /// (`metrics.statistics_interval_ms`; 0: off).
    public var statisticsIntervalMs = 5000

    public init(kafka: KafkaConfiguration) {
        self.kafka = kafka
    }

    /// Every setting at its default: the one place the command line's defaults come from.
    public static var defaults: ProcessorConfiguration { ProcessorConfiguration(kafka: KafkaConfiguration(bootstrapServers: "")) }
}

/// How outputs and input offsets are committed (docs/guarantees.md).
public enum ProcessingGuarantee: String, Sendable {
    /// Offsets are committed once the outputs and state they produced are delivered; after a
    /// failure, records are delivered again and change nothing, but outputs may repeat.
    case atLeastOnce = "at_least_once"
    /// Outputs, changelog and input offsets of each commit interval go in one Kafka
    /// transaction; read_committed consumers see each output once.
    case exactlyOnce = "exactly_once"
}

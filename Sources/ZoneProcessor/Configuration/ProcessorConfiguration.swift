public import ZoneEngine
public import ZoneKafka

/// Everything the processor needs to run; loaded from config/zonestream.yaml, the
/// environment and flags by the command line (see docs/configuration.md).
public struct ProcessorConfiguration: Sendable {
    /// The cluster. Nil bootstrap servers in the file means: start an embedded broker.
    public var kafka: KafkaConfiguration
    /// The consumer group all instances share (`group_id`).
    public var groupID = "zonestream"
    /// The application state records name as their writer: the group.
    var stateOwner: StateOwner { StateOwner(application: groupID) }
    public var topics = Topics()
    /// Worker threads; each owns the sessions of the partitions given to it (`workers`).
    public var workers = 2
    /// How often each worker commits the input offsets whose outputs are delivered (`commit_interval_ms`).
    public var commitIntervalMs = 1000
    /// Values over this size are dead-lettered as `too_large` (`max_message_bytes`).
    public var maxMessageBytes = 65_536
    /// Events more than this ahead of the earlier of their record's Kafka timestamp and the
    /// processor's clock are dead-lettered as `out_of_range` (`max_future_ms`, contract section 3).
    public var maxFutureMs = 86_400_000
    /// Counting rules: max gap, damping, normalization, idle timeout, retention.
    public var engine = EngineSettings()
    /// The cap on live sessions per instance (`max_live_sessions`): a new session over it is
    /// dead-lettered as `session_limit`, so a flood of new ids cannot exhaust memory.
    /// 400,000 fit the shipped 1 GiB limits with the restore peak (docs/how-to/size.md).
    public var maxLiveSessions = 400_000
    /// The cap on the live sessions' estimated memory per instance, in MiB
    /// (`max_session_memory_mb`): a new session over it is dead-lettered as `session_limit`, so
    /// sessions with long plans of their own cannot fill the memory under the count's cap.
    public var maxSessionMemoryMb = 640
    /// The most persons the profile table holds (`max_profiles`): past it a new person's
    /// profile is refused (counted and logged), so the table, which every instance holds
    /// whole, stays within memory.
    public var maxProfiles = 200_000
    /// The most persons whose training logs this instance's person stage holds, over every
    /// partition it owns, and the most summaries the `/people` table holds (`max_persons`):
    /// past it, persons with no workout in the 28 days before now make room, and a new person
    /// beyond that is dead-lettered as `person_limit` (counted and logged).
    public var maxPersons = 200_000
    /// The most classes the class-plan table holds (`max_class_plans`): past it a new class's
    /// plan is refused (counted and logged); every instance holds the table whole.
    public var maxClassPlans = 10_000
    /// The most classes whose latest day the class stage holds over its partitions
    /// (`max_classes`); past it, classes whose day ended two days ago make room, then a new
    /// class's workout is dead-lettered as `class_limit`.
    public var maxClasses = 10_000
    /// The deployment's local time as minutes east of UTC (`class_day_offset_minutes`): a
    /// class's day is the local date of its workouts' starts (contract, `class-summaries`).
    public var classDayOffsetMinutes = 0
    /// How long a session's first event waits at most for the profile and class-plan tables to
    /// be read as of it, its session's records held meanwhile (`join_wait_ms`; 0: no wait, the
    /// profiles and plans read so far). Contract, section 1.
    public var joinWaitMs = 2000
    /// The most live sessions this instance keeps as warm standbys (`state.standby_sessions`):
    /// the state of partitions other instances own, followed through the changelog, so that
    /// taking one over reads only the changelog's tail. Past it, the largest standbys are given
    /// up (those partitions are restored in full). 0: none, beyond a partition given back in
    /// the same rebalance. About 1 KB a session (docs/how-to/size.md).
    public var standbySessions = 100_000
    /// At-least-once (default) or exactly-once through Kafka transactions (`processing_guarantee`).
    public var guarantee = ProcessingGuarantee.atLeastOnce
    /// Exactly-once: every transactional.id starts with this (`transactional_id_prefix`),
    /// then the instance's identity and the producer's role (``transactionalID(role:)``).
    /// Empty (the default): the application's `group_id`, so two applications on one cluster
    /// whose instances have the same identities (two copies of a StatefulSet) never fence each
    /// other.
    public var transactionalIDPrefix = ""
    /// This instance's stable identity (`instance_id`), such as a StatefulSet pod's name. Its
    /// transactional ids carry it, so a restarted instance fences its earlier incarnation at
    /// once (the broker aborts that one's open transactions), and its consumers join with
    /// static membership (`group.instance.id`), so a restart within the session timeout moves
    /// no partition. Nil: the processor draws an identity at random when it starts, so
    /// instances started from identical settings never share a transactional id.
    public var instanceID: String?
    /// The identity transactional ids carry: ``instanceID``, or the one the processor drew.
    var transactionalIdentity = ""
    /// The session snapshot format written to the changelog (`changelog.snapshot_format`): 4,
    /// or an earlier one during a rolling upgrade from a release that reads only that (3: the
    /// plan written in full; 2: no plan kept; 1: no class and no effort either). Every format
    /// is read.
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
    /// Replication factor of created topics (`create_topics.replication_factor`); -1, the
    /// default, leaves it to the broker's `default.replication.factor`, so topics made on a
    /// cluster with `min.insync.replicas` 2 can be written.
    public var createTopicReplication = -1
    /// Publish each live session's state to ``ZoneProcessor/sessionDirectory`` at every commit
    /// interval (for the operator's endpoint); off, the workers skip that work.
    public var publishesLiveSessions = false
    /// Whether the cluster is the embedded in-memory broker (`run --embedded`): shown by
    /// `/ready` and `zonestream_embedded_broker`, since it keeps nothing.
    public var embeddedBroker = false
    /// How often librdkafka reports statistics, from which consumer lag is exported
    /// (`metrics.statistics_interval_ms`; 0: off).
    public var statisticsIntervalMs = 5000
    /// How often the progress line (records/s, lag, live sessions, dead letters) is logged at
    /// info (`metrics.progress_interval_s`; 0: never).
    public var progressIntervalMs = 60_000

    public init(kafka: KafkaConfiguration) {
        self.kafka = kafka
    }

    /// The transactional.id of one of this instance's producers: the prefix, the instance's
    /// identity and the role (`w0`, `w1`, ... for the workers, `people` for the person stage).
    func transactionalID(role: String) -> String {
        "\(transactionalIDPrefix.isEmpty ? groupID : transactionalIDPrefix)-\(transactionalIdentity)-\(role)"
    }

    /// How long the broker lets a transaction of a dead producer stay open before it aborts
    /// it: 10 s, or three commit intervals when those are longer (a transaction spans one),
    /// within the broker's default limit of 15 minutes.
    var transactionTimeoutMs: Int { min(900_000, max(10_000, 3 * commitIntervalMs)) }

    /// A random identity for an instance that has none of its own: 12 hex digits.
    static func drawnIdentity() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next() & 0xFFFF_FFFF_FFFF, radix: 16)
    }

    /// How long the group waits for a silent member before it gives the member's partitions
    /// to others: 6 s (Kafka's smallest allowed session timeout) unless
    /// `kafka.properties.session.timeout.ms` says otherwise. librdkafka's own default, 45 s,
    /// would pause a crashed instance's sessions (and every join and leave on a broker that
    /// waits for it) for most of a minute; heartbeats go from librdkafka's own thread, so a
    /// busy worker does not miss them.
    var sessionTimeoutMs: Int {
        kafka.properties["session.timeout.ms"].flatMap { Int($0) } ?? Self.groupTimingDefaults.sessionTimeoutMs
    }

    /// The session timeout and heartbeat interval the group members use unless the user's
    /// librdkafka properties set them (a heartbeat every 500 ms: twelve within a session timeout).
    static let groupTimingDefaults = (sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500)

    /// A gap between two looks at the clock longer than this is a stall of the thread that
    /// looks (a frozen process, a paused container): the workers and the keyed stages alike.
    static let stallMs: Int64 = 5_000

    /// How long a worker's idle timeouts and a stage's outputs wait after a stall: the group's
    /// session timeout (at least the default), in which a replaced member learns that it lost
    /// its partitions.
    var stallGraceMs: Int64 { Int64(max(sessionTimeoutMs, Self.groupTimingDefaults.sessionTimeoutMs)) }

    /// Consumer properties for the instance's group members: the group timing above, and
    /// static membership when the instance has an identity of its own (where the user set
    /// none of these).
    public func memberProperties(_ base: [String: String] = [:]) -> [String: String] {
        var properties = base
        let timing = [
            "session.timeout.ms": "\(Self.groupTimingDefaults.sessionTimeoutMs)",
            "heartbeat.interval.ms": "\(Self.groupTimingDefaults.heartbeatIntervalMs)",
        ]
        for (key, value) in timing where kafka.properties[key] == nil { properties[key] = value }
        if let instanceID, kafka.properties["group.instance.id"] == nil {
            properties["group.instance.id"] = instanceID
        }
        return properties
    }

    /// Every setting at its default: the one place the command line's defaults come from.
    public static var defaults: ProcessorConfiguration {
        ProcessorConfiguration(kafka: KafkaConfiguration(bootstrapServers: ""))
    }
}

/// How outputs and input offsets are committed (docs/explanation/guarantees.md).
public enum ProcessingGuarantee: String, Sendable {
    /// Offsets are committed once the outputs and state they produced are delivered; after a
    /// failure, records are delivered again and change nothing, but outputs may repeat.
    case atLeastOnce = "at_least_once"
    /// Outputs, changelog and input offsets of each commit interval go in one Kafka
    /// transaction; read_committed consumers see each output once.
    case exactlyOnce = "exactly_once"
}

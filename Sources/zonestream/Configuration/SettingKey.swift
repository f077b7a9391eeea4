import Foundation
import ZoneEngine
import ZoneHTTP
import ZoneProcessor

/// Every setting ZoneStream reads, with its default, the values it accepts and its meaning:
/// the one table the loader, `zonestream run --print-config` and config/zonestream.yaml agree
/// on. Defaults of processor settings are read from ``ProcessorConfiguration``,
/// ``EngineSettings`` and ``Topics`` themselves, so each default lives in one place.
///
/// A setting comes from, lowest first: its default, the YAML file, the environment
/// (`ZONESTREAM_` + the key in upper case, dots as underscores), and `--set key=value` flags.
struct SettingKey: Sendable {
    let key: String
    let defaultValue: String
    let rule: SettingRule
    let help: String

    init(_ key: String, _ defaultValue: some CustomStringConvertible, _ rule: SettingRule, _ help: String) {
        self.key = key
        self.defaultValue = defaultValue.description
        self.rule = rule
        self.help = help
    }

    var environmentName: String {
        "ZONESTREAM_" + key.uppercased().replacingOccurrences(of: ".", with: "_")
    }

    /// The most worker threads: each has its own librdkafka queue (and, exactly-once, its
    /// own producer); more than the cores of a large machine only adds memory and context switches.
    static let maximumWorkers = 64
    /// The most live sessions per instance: at about 1.5 KB each, 10 million is ~15 GB.
    static let maximumLiveSessions = 10_000_000

    static let all: [SettingKey] = {
        let processor = ProcessorConfiguration.defaults
        let engine = processor.engine
        let topics = processor.topics
        let board = BoardSettings()
        let limits = EndpointLimits()
        return [
            SettingKey(
                "kafka.bootstrap_servers", "", .text,
                "Kafka bootstrap servers; empty: refused, unless `run --embedded` (a local in-memory broker)"),
            SettingKey("kafka.client_id", "zonestream", .nonEmpty, "client.id sent to Kafka"),
            SettingKey(
                "kafka.connect_timeout_s", 30, .integer(1...3_600),
                "run: how long to wait at start for a broker to answer before exiting with status 69"),
            SettingKey("group_id", processor.groupID, .nonEmpty, "consumer group shared by all instances"),
            SettingKey(
                "application", "", .identifier,
                "a second application on the cluster: its name prefixes the output and dead-letter topics left at their defaults (<application>-zone-changes, ...); empty: the contract's names"
            ),
            SettingKey(
                "workers", processor.workers, .integer(1...maximumWorkers),
                "worker threads; each owns its partitions' sessions"),
            SettingKey(
                "commit_interval_ms", processor.commitIntervalMs, .integer(10...600_000),
                "how often delivered work's input offsets are committed"),
            SettingKey(
                "processing_guarantee", processor.guarantee.rawValue, .choice(["at_least_once", "exactly_once"]),
                "at_least_once or exactly_once (Kafka transactions; see docs/explanation/guarantees.md)"),
            SettingKey(
                "transactional_id_prefix", processor.transactionalIDPrefix, .identifier,
                "exactly_once: transactional.id prefix (then the instance's identity and the producer's role); empty: group_id"
            ),
            SettingKey(
                "instance_id", "", .identifier,
                "this instance's stable identity (e.g. a StatefulSet pod name): its transactional ids and static group membership; empty: random per start"
            ),
            SettingKey(
                "batch_size", processor.batchSize, .integer(1...100_000),
                "records a worker takes from librdkafka at once"),
            SettingKey(
                "max_message_bytes", processor.maxMessageBytes, .integer(1...1_000_000),
                "larger values are dead-lettered as too_large"),
            SettingKey(
                "max_future_ms", processor.maxFutureMs, .integer(0...9_007_199_254_740_992),
                "an event's time (a series' last value's) more than this after the earlier of its record's Kafka timestamp and the processor's clock is dead-lettered as out_of_range"
            ),
            SettingKey("max_gap_ms", engine.maxGapMs, .integer(1...86_400_000), "how long one sample covers at most"),
            SettingKey(
                "zone_change_min_dwell_ms", engine.zoneChangeMinDwellMs, .integer(0...3_600_000),
                "damping: publish a zone only after this long in it (0: off)"),
            SettingKey(
                "target_min_dwell_ms", engine.targetMinDwellMs, .integer(0...3_600_000),
                "publish a new target state only after samples kept it this long: hysteresis, and grace after a step starts (0: off)"
            ),
            SettingKey(
                "idle_timeout_s", engine.idleTimeoutMs / 1000, .integer(1...604_800),
                "finish a session with no applied event for this long"),
            SettingKey(
                "finished_retention_s", engine.finishedRetentionMs / 1000, .integer(0...604_800),
                "dead-letter a finished session's events for this long"),
            SettingKey(
                "reorder_window_ms", engine.reorderWindowMs, .integer(0...60_000),
                "sort samples up to this much out of order before applying them (0: off)"),
            SettingKey(
                "max_live_sessions", processor.maxLiveSessions, .integer(1...maximumLiveSessions),
                "cap on live sessions per instance; new ones over it are dead-lettered as session_limit"),
            SettingKey(
                "max_session_memory_mb", processor.maxSessionMemoryMb, .integer(1...1_048_576),
                "cap on the live sessions' estimated memory per instance (1.4 KB a session, more with a plan of its own); new ones over it are dead-lettered as session_limit"
            ),
            SettingKey(
                "max_profiles", processor.maxProfiles, .integer(1...maximumLiveSessions),
                "cap on persons in the profile table (every instance holds it whole); new persons over it are refused, counted and logged"
            ),
            SettingKey(
                "join_wait_ms", processor.joinWaitMs, .integer(0...60_000),
                "a session's first event waits at most this long for the profile and class-plan tables to be read as of it, its session's records held while the worker's other sessions go on (0: no wait)"
            ),
            SettingKey(
                "shutdown_timeout_s", 20, .integer(1...3600),
                "the whole stop after SIGTERM or SIGINT may take this long; then the process exits with what is not delivered logged (a second signal exits at once)"
            ),
            SettingKey(
                "max_class_plans", processor.maxClassPlans, .integer(1...1_000_000),
                "cap on classes in the class-plan table (every instance holds it whole); new classes over it are refused, counted and logged"
            ),
            SettingKey(
                "max_classes", processor.maxClasses, .integer(1...1_000_000),
                "cap on classes in the class stage's table; past it classes of an ended day make room, then new ones are dead-lettered as class_limit"
            ),
            SettingKey(
                "class_day_offset_minutes", processor.classDayOffsetMinutes, .integer(-720...840),
                "the gym's local time as minutes east of UTC: a class summary's day is the local date of its workouts' starts"
            ),
            SettingKey(
                "max_persons", processor.maxPersons, .integer(1...maximumLiveSessions),
                "cap on persons in the person stage's table and in the /people table; past it persons idle for 28 days make room, then new ones are dead-lettered as person_limit"
            ),
            SettingKey(
                "state.standby_sessions", processor.standbySessions, .integer(0...maximumLiveSessions),
                "warm standbys: most live sessions of partitions owned elsewhere kept ready to take over (0: off)"),
            SettingKey(
                "profiles_catch_up_ms", processor.profilesCatchUpMs, .integer(0...600_000),
                "wait at start for the profile table to catch up"),
            SettingKey(
                "memory.trim_interval_ms", processor.heapTrimIntervalMs, .integer(0...3_600_000),
                "how often freed memory is given back to the system (0: never)"),
            SettingKey(
                "normalize.heart_rate.boundaries", "", .boundaries,
                "normalization model for heart rate, e.g. 100,120,140,160 (empty: none)"),
            SettingKey(
                "normalize.cycling_power.boundaries", "", .boundaries,
                "normalization model for power in W (empty: none)"),
            SettingKey(
                "changelog.snapshot_format", Int(processor.snapshotFormat), .integer(1...4),
                "session snapshot format written (an earlier one during a rolling upgrade from a release that reads only that)"
            ),
            SettingKey("topics.workout_events", topics.workoutEvents, .nonEmpty, "input topic"),
            SettingKey("topics.zone_profiles", topics.zoneProfiles, .nonEmpty, "profiles topic (compacted)"),
            SettingKey("topics.zone_changes", topics.zoneChanges, .nonEmpty, "zone-change events"),
            SettingKey("topics.workouts_finished", topics.workoutsFinished, .nonEmpty, "finished-workout summaries"),
            SettingKey("topics.dead_letters", topics.deadLetters, .nonEmpty, "dead-letter records"),
            SettingKey(
                "topics.changelog", "", .topicName,
                "session state per input partition (compacted, co-partitioned with the input); empty: <group_id>-changelog"
            ),
            SettingKey(
                "topics.person_summaries", topics.personSummaries, .nonEmpty,
                "each person's last 7 and 28 days (compacted, keyed by person)"),
            SettingKey(
                "topics.person_workouts", "", .topicName,
                "the person stage's repartition topic: finished workouts keyed by person; empty: <group_id>-person-workouts"
            ),
            SettingKey(
                "topics.person_changelog", "", .topicName,
                "person table state per repartition partition (compacted, co-partitioned with it); empty: <group_id>-person-changelog"
            ),
            SettingKey(
                "topics.target_changes", topics.targetChanges, .nonEmpty, "live target changes of planned sessions"),
            SettingKey(
                "topics.class_plans", topics.classPlans, .nonEmpty, "each class's plan (compacted, keyed by class)"),
            SettingKey(
                "topics.class_summaries", topics.classSummaries, .nonEmpty,
                "each class's results per local day (compacted, keyed by class@day)"),
            SettingKey(
                "topics.class_workouts", "", .topicName,
                "the class stage's repartition topic: finished workouts keyed by class and day; empty: <group_id>-class-workouts"
            ),
            SettingKey(
                "topics.class_changelog", "", .topicName,
                "the class table's state per class_workouts partition (compacted, co-partitioned); empty: <group_id>-class-changelog"
            ),
            SettingKey(
                "create_topics.partitions", processor.createTopicPartitions, .integer(0...10_000),
                "create missing topics on a real cluster with this many partitions (0: never)"),
            SettingKey(
                "create_topics.replication_factor", processor.createTopicReplication, .integerOrBrokerDefault(1...100),
                "replication factor of created topics (-1: the broker's default.replication.factor)"),
            SettingKey(
                "embedded.partitions", 8, .integer(1...64),
                "partitions per topic on the embedded broker (each keeps up to ~5 MB)"),
            SettingKey(
                "http.enabled", true, .boolean,
                "serve /metrics, /health, /ready, /sessions/{id} and the /board page (false: no HTTP)"),
            SettingKey(
                "http.host", "127.0.0.1", .nonEmpty, "address the HTTP endpoint binds (0.0.0.0: every interface)"),
            SettingKey("http.port", 8080, .integer(0...65_535), "HTTP port (0: any free port, logged at start)"),
            SettingKey(
                "http.board_interval_ms", Int(board.updateInterval / .milliseconds(1)), .integer(50...60_000),
                "how often the board's event stream sends changes"),
            SettingKey(
                "http.board_max_sessions", board.maxSessions, .integer(1...100_000),
                "most tiles one board shows (first by session id)"),
            SettingKey(
                "http.max_board_clients", board.maxClients, .integer(1...10_000),
                "most board streams open at once; more are refused with 503"),
            SettingKey(
                "http.max_connections", limits.maxConnections, .integer(16...100_000),
                "most HTTP connections open at once; past it the oldest with half a request head sent is closed, else the oldest without a request in progress"
            ),
            SettingKey(
                "http.header_timeout_ms", limits.headerTimeoutMs, .integer(100...600_000),
                "a new connection must send its first request's head within this"),
            SettingKey(
                "http.idle_timeout_s", limits.idleTimeoutSeconds, .integer(1...3600),
                "close a connection with no request in progress after this"),
            SettingKey(
                "http.token", "", .secret,
                "access token for /sessions, /people and /board (Authorization: Bearer, or ?token=); required to bind beyond loopback"
            ),
            SettingKey(
                "http.trusted_network", false, .boolean,
                "allow binding beyond loopback without http.token (every client that reaches the port may read members' data)"
            ),
            SettingKey(
                "metrics.statistics_interval_ms", processor.statisticsIntervalMs, .integer(0...3_600_000),
                "librdkafka statistics period, for consumer lag (0: off)"),
            SettingKey(
                "metrics.progress_interval_s", processor.progressIntervalMs / 1000, .integer(0...86_400),
                "how often the progress line is logged at info (0: never)"),
            SettingKey(
                "log_level", "info", .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]),
                "how much is logged"),
            SettingKey(
                "log_format", "text", .choice(["text", "json"]), "text (key=value) or json (one object per line)"),
        ]
    }()

    static let byKey: [String: SettingKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// Keys under this prefix pass straight through to librdkafka (SASL, TLS, tuning).
    static let kafkaPropertyPrefix = "kafka.properties."
}

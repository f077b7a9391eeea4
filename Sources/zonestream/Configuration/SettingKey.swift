/// Every setting ZoneStream reads, with its default and meaning: the one table the loader,
/// `zonestream run --help` and config/zonestream.yaml agree on.
///
/// A setting comes from, lowest first: its default, the YAML file, the environment
/// (`ZONESTREAM_` + the key in upper case, dots as underscores), and `--set key=value` flags.
struct SettingKey: Sendable {
    let key: String
    let defaultValue: String
    let help: String

    var environmentName: String {
        "ZONESTREAM_" + key.uppercased().replacingOccurrences(of: ".", with: "_")
    }

    static let all: [SettingKey] = [
        SettingKey(key: "kafka.bootstrap_servers", defaultValue: "", help: "Kafka bootstrap servers; empty starts an embedded broker"),
        SettingKey(key: "kafka.client_id", defaultValue: "zonestream", help: "client.id sent to Kafka"),
        SettingKey(key: "group_id", defaultValue: "zonestream", help: "consumer group shared by all instances"),
        SettingKey(key: "workers", defaultValue: "2", help: "worker threads; each owns its partitions' sessions"),
        SettingKey(key: "commit_interval_ms", defaultValue: "1000", help: "how often delivered work's input offsets are committed"),
        SettingKey(key: "processing_guarantee", defaultValue: "at_least_once", help: "at_least_once or exactly_once (Kafka transactions; see docs/guarantees.md)"),
        SettingKey(key: "transactional_id_prefix", defaultValue: "zonestream", help: "exactly_once: transactional.id prefix, stable per instance (each worker adds -w<index>)"),
        SettingKey(key: "batch_size", defaultValue: "4096", help: "records a worker takes from librdkafka at once"),
        SettingKey(key: "max_message_bytes", defaultValue: "65536", help: "larger values are dead-lettered as too_large"),
        SettingKey(key: "max_gap_ms", defaultValue: "10000", help: "how long one sample covers at most"),
        SettingKey(key: "zone_change_min_dwell_ms", defaultValue: "0", help: "damping: publish a zone only after this long in it (0: off)"),
        SettingKey(key: "idle_timeout_s", defaultValue: "600", help: "finish a session with no applied event for this long"),
        SettingKey(key: "finished_retention_s", defaultValue: "3600", help: "dead-letter a finished session's events for this long"),
        SettingKey(key: "reorder_window_ms", defaultValue: "0", help: "sort samples up to this much out of order before applying them (0: off)"),
        SettingKey(key: "max_live_sessions", defaultValue: "1000000", help: "cap on live sessions per instance; new ones over it are dead-lettered as session_limit"),
        SettingKey(key: "profiles_catch_up_ms", defaultValue: "30000", help: "wait at start for the profile table to catch up"),
        SettingKey(key: "normalize.heart_rate.boundaries", defaultValue: "", help: "normalization model for heart rate, e.g. 100,120,140,160 (empty: none)"),
        SettingKey(key: "normalize.cycling_power.boundaries", defaultValue: "", help: "normalization model for power in W (empty: none)"),
        SettingKey(key: "topics.workout_events", defaultValue: "workout-events", help: "input topic"),
        SettingKey(key: "topics.zone_profiles", defaultValue: "zone-profiles", help: "profiles topic (compacted)"),
        SettingKey(key: "topics.zone_changes", defaultValue: "zone-changes", help: "zone-change events"),
        SettingKey(key: "topics.workouts_finished", defaultValue: "workouts-finished", help: "finished-workout summaries"),
        SettingKey(key: "topics.dead_letters", defaultValue: "zonestream-dlq", help: "dead-letter records"),
        SettingKey(key: "topics.changelog", defaultValue: "zonestream-changelog", help: "session state per input partition (compacted, co-partitioned with the input)"),
        SettingKey(key: "create_topics.partitions", defaultValue: "8", help: "create missing topics on a real cluster with this many partitions (0: never)"),
        SettingKey(key: "create_topics.replication_factor", defaultValue: "1", help: "replication factor of created topics"),
        SettingKey(key: "embedded.partitions", defaultValue: "8", help: "partitions per topic on the embedded broker"),
        SettingKey(key: "http.enabled", defaultValue: "true", help: "serve /metrics, /health, /ready, /sessions/{id} and the /board page (false: no HTTP)"),
        SettingKey(key: "http.host", defaultValue: "127.0.0.1", help: "address the HTTP endpoint binds (0.0.0.0: every interface)"),
        SettingKey(key: "http.port", defaultValue: "8080", help: "HTTP port (0: any free port, logged at start)"),
        SettingKey(key: "http.board_interval_ms", defaultValue: "1000", help: "how often the board's event stream sends changes"),
        SettingKey(key: "http.board_max_sessions", defaultValue: "2000", help: "most tiles one board shows (first by session id)"),
        SettingKey(key: "metrics.statistics_interval_ms", defaultValue: "5000", help: "librdkafka statistics period, for consumer lag (0: off)"),
        SettingKey(key: "log_level", defaultValue: "info", help: "trace, debug, info, notice, warning, error, critical"),
        SettingKey(key: "log_format", defaultValue: "text", help: "text (key=value) or json (one object per line)"),
    ]

    /// Keys under this prefix pass straight through to librdkafka (SASL, TLS, tuning).
    static let kafkaPropertyPrefix = "kafka.properties."
}

/// Every metric ZoneStream exports, with its help text: the `# HELP` lines of `/metrics`, and
/// the list the dashboard and alert rules are checked against (a test asserts each name they
/// use is exported). swift-metrics has no help text, so the endpoint adds it from here.
public enum MetricCatalogue {
    public static let help: [String: String] = [
        "zonestream_records_in_total":
            "Input records taken from workout-events and applied or dead-lettered (replays of applied records excluded).",
        "zonestream_samples_in_total": "Input records that were samples or sample series.",
        "zonestream_events_out_total":
            "Outputs produced, by type: zone_change, target_change, workout_finished, dead_letter (the workers), person_summary (the person stage), class_summary (the class stage).",
        "zonestream_dead_letters_total": "Input records dead-lettered, by the contract's reason.",
        "zonestream_late_samples_total":
            "Samples not applied because they were older than the last accepted one (counted, not dead-lettered).",
        "zonestream_duplicate_samples_total":
            "Samples not applied because they repeated the last accepted one (counted, not dead-lettered).",
        "zonestream_commit_duration_seconds": "Time to commit offsets (at-least-once) or a transaction (exactly-once).",
        "zonestream_rebalances_total": "Consumer-group rebalances this instance took part in.",
        "zonestream_changelog_records_total":
            "Changelog records written (session states, tombstones, retention markers).",
        "zonestream_sessions_restored_total":
            "Live sessions restored from the changelog after partitions were assigned.",
        "zonestream_changelog_records_refused_total":
            "Changelog records a restore could not read (corrupt, another format, a key that is not its session's), skipped.",
        "zonestream_partitions_restoring":
            "Assigned partitions whose state is still being restored from the changelog.",
        "zonestream_restore_records_remaining":
            "Changelog records the restores under way have still to read (0 when no partition is restoring).",
        "zonestream_restore_records_total":
            "Changelog records read by restores of assigned partitions (its rate is the restore rate).",
        "zonestream_rebalance_duration_seconds":
            "From the revocation of this instance's partitions until the group's next assignment.",
        "zonestream_standby_partitions":
            "Partitions this instance does not own whose state it keeps as a warm standby.",
        "zonestream_standby_sessions":
            "Live sessions held in warm standbys: at most state.standby_sessions once a rebalance has ended; while one runs, also those of the partitions this instance just released.",
        "zonestream_standby_records_behind":
            "Changelog records the standbys have yet to apply, behind the ends the last fetches told.",
        "zonestream_outputs_retried_total":
            "Outputs produced again after librdkafka gave up on them with a retriable error.",
        "zonestream_outputs_rejected_total":
            "Outputs the broker refused for good; their inputs are dead-lettered as output_rejected.",
        "zonestream_dead_letters_refused_total":
            "Dead letters the broker refused even in their minimal form (logged, then lost).",
        "zonestream_profiles_refused_total":
            "Profiles of new persons refused because the profile table held max_profiles persons.",
        "zonestream_persons_refused_total":
            "Workouts of new persons dead-lettered as person_limit: the person stage held max_persons persons, none idle for 28 days.",
        "zonestream_table_join_wait_seconds":
            "How long a session start's records were held until the profile and class-plan tables were read as of its event (only starts that were held).",
        "zonestream_table_join_timeouts_total":
            "Session starts that gave up waiting for the tables after join_wait_ms and started with the profiles and plans read so far.",
        "zonestream_table_join_unwaited_total":
            "Session starts that did not wait: the tables' end offsets had been late for over join_wait_ms already.",
        "zonestream_table_probe_seconds":
            "One round of the table prober: asking the tables' end offsets and waiting for the readers to apply them.",
        "zonestream_table_probe_failures_total":
            "End-offset requests of the table prober that the brokers did not answer in time (tried again).",
        "zonestream_fetch_wakes_total":
            "Requests sent only to wake librdkafka's fetchers: a worker's queue ran low while its partitions' records waited on the brokers.",
        "zonestream_class_plans_refused_total":
            "Plans of new classes refused because the class-plan table held max_class_plans classes.",
        "zonestream_classes_refused_total":
            "Workouts of new classes dead-lettered as class_limit: the class stage held max_classes classes, none of an ended day.",
        "zonestream_classes": "Classes whose latest day the class stage holds, over the partitions it owns.",
        "zonestream_persons": "Persons whose training logs the person stage holds, over the partitions it owns.",
        "zonestream_live_sessions": "Live sessions held, per worker thread.",
        "zonestream_session_memory_bytes":
            "The live sessions' estimated memory on this instance, as max_session_memory_mb caps it.",
        "zonestream_session_memory_limit_bytes": "max_session_memory_mb, in bytes.",
        "zonestream_live_sessions_limit": "max_live_sessions.",
        "zonestream_consumer_lag":
            "Records between this instance's position and the end of each partition it consumes: of workout-events (the workers) and of the person and class stages' repartition topics.",
        "zonestream_delivery_duration_seconds":
            "Produce to the broker's acknowledgement, by stage (workers, people, classes): once per commit interval, the longest of the outputs acknowledged since, as librdkafka measures it.",
        "zonestream_stage_keys_restored_total":
            "Persons (stage people) or classes (stage classes) read back from the stage's changelog by its restores.",
        "zonestream_stage_restore_duration_seconds":
            "Time to restore one partition of the person or class stage's table from its changelog.",
        "zonestream_http_connections": "Connections open to the HTTP endpoint now (at most http.max_connections).",
        "zonestream_board_clients": "Board event streams open now (at most http.max_board_clients).",
        "zonestream_batch_duration_seconds":
            "Time from a batch's first record reaching a worker until the batch is applied and its outputs are handed to librdkafka: the most any record waits in the processor.",
        "zonestream_sample_age_seconds":
            "Wall clock minus the sample's ts when its zone change is produced; once per batch, the oldest such sample. Meaningful for live traffic.",
        "zonestream_embedded_broker":
            "1 when the processor runs on the embedded in-memory broker (run --embedded), which keeps nothing; 0 on a cluster.",
        "zonestream_ready":
            "1 when the instance can serve (as GET /ready answers 200): from its first restored assignment on, through later rebalances and restores; else 0.",
        "zonestream_processing":
            "1 while every assigned partition is restored and consuming (as GET /ready?processing answers 200), else 0.",
        "zonestream_build_info":
            "Always 1; the labels say which build runs: version, commit, swift, librdkafka, jansson.",
        "process_cpu_seconds_total": "User and system CPU time of the process.",
        "process_resident_memory_bytes": "Resident memory of the process.",
        "process_virtual_memory_bytes": "Virtual memory of the process.",
        "process_open_fds": "Open file descriptors of the process.",
        "process_max_fds": "The process's limit of open file descriptors.",
        "process_start_time_seconds": "When the process started, in seconds since the Unix epoch.",
        "process_threads": "Threads of the process.",
    ]
}

import CoreMetrics
import ZoneEngine

extension ProcessorMetrics {
    /// The swift-metrics handles, made once.
    struct Exported: Sendable {
        let recordsIn: Counter
        let samplesIn: Counter
        let zoneChanges: Counter
        let targetChanges: Counter
        let workoutsFinished: Counter
        let deadLetters: Counter
        let deadLettersByReason: [DeadLetterReason: Counter]
        let lateSamples: Counter
        let duplicateSamples: Counter
        let commitDuration: Timer
        let rebalances: Counter
        let changelogRecords: Counter
        let sessionsRestored: Counter
        let changelogRecordsRefused: Counter
        let partitionsRestoring: Gauge
        let outputsRetried: Counter
        let outputsRejected: Counter
        let deadLettersRefused: Counter
        let profilesRefused: Counter
        let personsRefused: Counter
        let classPlansRefused: Counter
        let classesRefused: Counter
        let classes: Gauge
        let joinWait: Timer
        let joinTimeouts: Counter
        let joinsUnwaited: Counter
        let sessionMemory: Gauge
        let sessionMemoryLimit: Gauge
        let liveSessionsLimit: Gauge
        let probeDuration: Timer
        let probeFailures: Counter
        let fetchWakes: Counter
        let persons: Gauge
        let batchDuration: Timer
        let sampleAge: Recorder

        init(factory: any MetricsFactory) {
            func counter(_ name: String, _ dimensions: [(String, String)] = []) -> Counter {
                Counter(label: name, dimensions: dimensions, factory: factory)
            }
            recordsIn = counter("zonestream_records_in_total")
            samplesIn = counter("zonestream_samples_in_total")
            zoneChanges = counter("zonestream_events_out_total", [("type", "zone_change")])
            targetChanges = counter("zonestream_events_out_total", [("type", "target_change")])
            workoutsFinished = counter("zonestream_events_out_total", [("type", "workout_finished")])
            deadLetters = counter("zonestream_events_out_total", [("type", "dead_letter")])
            var byReason: [DeadLetterReason: Counter] = [:]
            for reason in DeadLetterReason.allCases {
                byReason[reason] = counter("zonestream_dead_letters_total", [("reason", reason.rawValue)])
            }
            deadLettersByReason = byReason
            lateSamples = counter("zonestream_late_samples_total")
            duplicateSamples = counter("zonestream_duplicate_samples_total")
            commitDuration = Timer(label: "zonestream_commit_duration_seconds", dimensions: [], factory: factory)
            rebalances = counter("zonestream_rebalances_total")
            changelogRecords = counter("zonestream_changelog_records_total")
            sessionsRestored = counter("zonestream_sessions_restored_total")
            changelogRecordsRefused = counter("zonestream_changelog_records_refused_total")
            partitionsRestoring = Gauge(label: "zonestream_partitions_restoring", dimensions: [], factory: factory)
            outputsRetried = counter("zonestream_outputs_retried_total")
            outputsRejected = counter("zonestream_outputs_rejected_total")
            deadLettersRefused = counter("zonestream_dead_letters_refused_total")
            profilesRefused = counter("zonestream_profiles_refused_total")
            personsRefused = counter("zonestream_persons_refused_total")
            classPlansRefused = counter("zonestream_class_plans_refused_total")
            classesRefused = counter("zonestream_classes_refused_total")
            classes = Gauge(label: "zonestream_classes", dimensions: [], factory: factory)
            joinWait = Timer(label: "zonestream_table_join_wait_seconds", dimensions: [], factory: factory)
            joinTimeouts = counter("zonestream_table_join_timeouts_total")
            joinsUnwaited = counter("zonestream_table_join_unwaited_total")
            sessionMemory = Gauge(label: "zonestream_session_memory_bytes", dimensions: [], factory: factory)
            sessionMemoryLimit = Gauge(label: "zonestream_session_memory_limit_bytes", dimensions: [], factory: factory)
            liveSessionsLimit = Gauge(label: "zonestream_live_sessions_limit", dimensions: [], factory: factory)
            probeDuration = Timer(label: "zonestream_table_probe_seconds", dimensions: [], factory: factory)
            probeFailures = counter("zonestream_table_probe_failures_total")
            fetchWakes = counter("zonestream_fetch_wakes_total")
            persons = Gauge(label: "zonestream_persons", dimensions: [], factory: factory)
            batchDuration = Timer(label: "zonestream_batch_duration_seconds", dimensions: [], factory: factory)
            sampleAge = Recorder(
                label: "zonestream_sample_age_seconds", dimensions: [], aggregate: true, factory: factory)
        }
    }
}

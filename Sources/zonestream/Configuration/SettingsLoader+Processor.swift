import Foundation
import ZoneEngine
import ZoneKafka
import ZoneProcessor

extension SettingsLoader {
    /// The processor configuration these settings describe, for the given bootstrap servers.
    func processorConfiguration(bootstrapServers: String) throws(SettingsError) -> ProcessorConfiguration {
        var configuration = ProcessorConfiguration(
            kafka: KafkaConfiguration(
                bootstrapServers: bootstrapServers, clientID: string("kafka.client_id"), properties: kafkaProperties))
        configuration.groupID = string("group_id")
        configuration.workers = integer("workers")
        configuration.commitIntervalMs = integer("commit_interval_ms")
        configuration.batchSize = integer("batch_size")
        configuration.maxMessageBytes = integer("max_message_bytes")
        configuration.maxFutureMs = integer("max_future_ms")
        configuration.profilesCatchUpMs = integer("profiles_catch_up_ms")
        configuration.heapTrimIntervalMs = integer("memory.trim_interval_ms")
        configuration.createTopicPartitions = integer("create_topics.partitions")
        configuration.createTopicReplication = integer("create_topics.replication_factor")
        configuration.engine = EngineSettings(
            maxGapMs: Int64(integer("max_gap_ms")),
            zoneChangeMinDwellMs: Int64(integer("zone_change_min_dwell_ms")),
            normalization: PerQuantity(
                heartRate: try normalization(.heartRate), cyclingPower: try normalization(.cyclingPower)),
            idleTimeoutMs: Int64(integer("idle_timeout_s")) * 1000,
            finishedRetentionMs: Int64(integer("finished_retention_s")) * 1000,
            reorderWindowMs: Int64(integer("reorder_window_ms")))
        configuration.engine.targetMinDwellMs = Int64(integer("target_min_dwell_ms"))
        configuration.maxLiveSessions = integer("max_live_sessions")
        configuration.maxSessionMemoryMb = integer("max_session_memory_mb")
        configuration.maxProfiles = integer("max_profiles")
        configuration.maxPersons = integer("max_persons")
        configuration.maxClassPlans = integer("max_class_plans")
        configuration.maxClasses = integer("max_classes")
        configuration.classDayOffsetMinutes = integer("class_day_offset_minutes")
        configuration.joinWaitMs = integer("join_wait_ms")
        configuration.standbySessions = integer("state.standby_sessions")
        configuration.guarantee = ProcessingGuarantee(rawValue: string("processing_guarantee")) ?? .atLeastOnce
        configuration.transactionalIDPrefix = string("transactional_id_prefix")
        let instanceID = string("instance_id").trimmingCharacters(in: .whitespaces)
        configuration.instanceID = instanceID.isEmpty ? nil : instanceID
        configuration.statisticsIntervalMs = integer("metrics.statistics_interval_ms")
        configuration.progressIntervalMs = integer("metrics.progress_interval_s") * 1000
        configuration.snapshotFormat = UInt8(integer("changelog.snapshot_format"))
        configuration.publishesLiveSessions = boolean("http.enabled")
        configuration.topics = try topics(groupID: configuration.groupID)
        return configuration
    }

    /// The topics these settings name; the internal ones left empty are named after `groupID`.
    func topics(groupID: String) throws(SettingsError) -> Topics {
        var topics = Topics(application: groupID)
        topics.workoutEvents = string("topics.workout_events")
        topics.zoneProfiles = string("topics.zone_profiles")
        topics.zoneChanges = string("topics.zone_changes")
        topics.workoutsFinished = string("topics.workouts_finished")
        topics.deadLetters = string("topics.dead_letters")
        topics.personSummaries = string("topics.person_summaries")
        topics.targetChanges = string("topics.target_changes")
        topics.classPlans = string("topics.class_plans")
        topics.classSummaries = string("topics.class_summaries")
        // A second application's outputs apart from the first one's: the output topics left at
        // their defaults take its name first.
        let application = string("application")
        if !application.isEmpty {
            let outputs: [(String, WritableKeyPath<Topics, String>)] = [
                ("topics.zone_changes", \.zoneChanges), ("topics.workouts_finished", \.workoutsFinished),
                ("topics.dead_letters", \.deadLetters), ("topics.person_summaries", \.personSummaries),
                ("topics.target_changes", \.targetChanges), ("topics.class_summaries", \.classSummaries),
            ]
            for (key, path) in outputs where string(key) == SettingKey.byKey[key]?.defaultValue {
                topics[keyPath: path] = "\(application)-\(topics[keyPath: path])"
            }
        }
        let internalTopics: [(String, WritableKeyPath<Topics, String>)] = [
            ("topics.changelog", \.changelog), ("topics.person_workouts", \.personWorkouts),
            ("topics.person_changelog", \.personChangelog), ("topics.class_workouts", \.classWorkouts),
            ("topics.class_changelog", \.classChangelog),
        ]
        var derived: [String] = []
        for (key, path) in internalTopics {
            let name = string(key).trimmingCharacters(in: .whitespaces)
            if name.isEmpty { derived.append(key) } else { topics[keyPath: path] = name }
        }
        try checkDerivedNames(derived, groupID: groupID)
        return topics
    }

    /// Internal topics named after `group_id` need a group id Kafka accepts in a topic name.
    private func checkDerivedNames(_ keys: [String], groupID: String) throws(SettingsError) {
        guard !keys.isEmpty, !(SettingRule.isKafkaName(groupID) && groupID.utf8.count <= 200) else { return }
        throw SettingsError(
            description:
                "group_id '\(groupID)' cannot name internal topics (\(keys.joined(separator: ", ")) are empty, so they would be '\(groupID)-...'): use up to 200 letters, digits, '.', '_' and '-' in group_id, or set those topics' names"
        )
    }
}

import Foundation
import Yams
import ZoneEngine
import ZoneKafka
import ZoneProcessor

/// Why settings could not be loaded, with the key or file at fault.
struct SettingsError: Error, CustomStringConvertible {
    let description: String
}

/// Resolves settings from defaults, a YAML file, the environment and `--set` flags.
struct SettingsLoader {
    private(set) var values: [String: String] = [:]

    init(file: String?, environment: [String: String], overrides: [String]) throws {
        for setting in SettingKey.all { values[setting.key] = setting.defaultValue }
        if let file {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            guard let root = try Yams.load(yaml: text) else { return }
            flatten(root, prefix: "")
        }
        for setting in SettingKey.all {
            if let value = environment[setting.environmentName] { values[setting.key] = value }
        }
        for (name, value) in environment where name.hasPrefix("ZONESTREAM_KAFKA_PROPERTIES_") {
            let property = name.dropFirst("ZONESTREAM_KAFKA_PROPERTIES_".count).lowercased()
                .replacingOccurrences(of: "_", with: ".")
            values[SettingKey.kafkaPropertyPrefix + property] = value
        }
        for override in overrides {
            guard let equals = override.firstIndex(of: "=") else {
                throw SettingsError(description: "--set takes key=value, got '\(override)'")
            }
            values[String(override[..<equals])] = String(override[override.index(after: equals)...])
        }
        let known = Set(SettingKey.all.map(\.key))
        for key in values.keys where !known.contains(key) && !key.hasPrefix(SettingKey.kafkaPropertyPrefix) {
            throw SettingsError(description: "unknown setting '\(key)' (see config/zonestream.yaml)")
        }
    }

    private mutating func flatten(_ node: Any, prefix: String) {
        if let map = node as? [String: Any] {
            for (key, value) in map { flatten(value, prefix: prefix.isEmpty ? key : "\(prefix).\(key)") }
        } else if let list = node as? [Any] {
            values[prefix] = list.map { "\($0)" }.joined(separator: ",")
        } else if node is NSNull {
            values[prefix] = ""
        } else {
            values[prefix] = "\(node)"
        }
    }

    func string(_ key: String) -> String { values[key] ?? "" }

    func integer(_ key: String) throws -> Int {
        guard let value = Int(string(key).trimmingCharacters(in: .whitespaces)) else {
            throw SettingsError(description: "setting '\(key)' must be a whole number, got '\(string(key))'")
        }
        return value
    }

    func boolean(_ key: String) throws -> Bool {
        switch string(key).trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw SettingsError(description: "setting '\(key)' must be true or false, got '\(string(key))'")
        }
    }

    /// The librdkafka properties given under `kafka.properties.`.
    var kafkaProperties: [String: String] {
        var properties: [String: String] = [:]
        for (key, value) in values where key.hasPrefix(SettingKey.kafkaPropertyPrefix) {
            properties[String(key.dropFirst(SettingKey.kafkaPropertyPrefix.count))] = value
        }
        return properties
    }

    func normalization(_ quantity: Quantity) throws -> ZoneConfiguration? {
        let text = string("normalize.\(quantity.name).boundaries")
        guard !text.isEmpty else { return nil }
        let boundaries = try text.split(separator: ",").map { part -> Double in
            guard let value = Double(part.trimmingCharacters(in: .whitespaces)) else {
                throw SettingsError(description: "normalize.\(quantity.name).boundaries: '\(part)' is not a number")
            }
            return value
        }
        do {
            return try ZoneConfiguration.validated(quantity: quantity, source: .normalized, boundaries: boundaries)
        } catch {
            throw SettingsError(description: "normalize.\(quantity.name).boundaries: \(error)")
        }
    }

    /// The processor configuration these settings describe, for the given bootstrap servers.
    func processorConfiguration(bootstrapServers: String) throws -> ProcessorConfiguration {
        var configuration = ProcessorConfiguration(
            kafka: KafkaConfiguration(
                bootstrapServers: bootstrapServers, clientID: string("kafka.client_id"), properties: kafkaProperties))
        configuration.groupID = string("group_id")
        configuration.workers = try integer("workers")
        configuration.commitIntervalMs = try integer("commit_interval_ms")
        configuration.batchSize = try integer("batch_size")
        configuration.maxMessageBytes = try integer("max_message_bytes")
        configuration.profilesCatchUpMs = try integer("profiles_catch_up_ms")
        configuration.createTopicPartitions = try integer("create_topics.partitions")
        configuration.createTopicReplication = try integer("create_topics.replication_factor")
        configuration.engine = EngineSettings(
            maxGapMs: Int64(try integer("max_gap_ms")),
            zoneChangeMinDwellMs: Int64(try integer("zone_change_min_dwell_ms")),
            normalization: PerQuantity(
                heartRate: try normalization(.heartRate), cyclingPower: try normalization(.cyclingPower)),
            idleTimeoutMs: Int64(try integer("idle_timeout_s")) * 1000,
            finishedRetentionMs: Int64(try integer("finished_retention_s")) * 1000,
            reorderWindowMs: Int64(try integer("reorder_window_ms")))
        configuration.maxLiveSessions = try integer("max_live_sessions")
        guard let guarantee = ProcessingGuarantee(rawValue: string("processing_guarantee")) else {
            throw SettingsError(description: "processing_guarantee must be at_least_once or exactly_once")
        }
        configuration.guarantee = guarantee
        configuration.transactionalIDPrefix = string("transactional_id_prefix")
        configuration.statisticsIntervalMs = try integer("metrics.statistics_interval_ms")
        configuration.publishesLiveSessions = try boolean("http.enabled")
        var topics = Topics()
        topics.workoutEvents = string("topics.workout_events")
        topics.zoneProfiles = string("topics.zone_profiles")
        topics.zoneChanges = string("topics.zone_changes")
        topics.workoutsFinished = string("topics.workouts_finished")
        topics.deadLetters = string("topics.dead_letters")
        topics.changelog = string("topics.changelog")
        configuration.topics = topics
        return configuration
    }
}

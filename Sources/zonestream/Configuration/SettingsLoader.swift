import Foundation
import Logging
import Yams
import ZoneEngine
import ZoneKafka
import ZoneProcessor

/// Why settings were refused: for each problem, the key, the value, where it came from and
/// what is allowed. Every problem of a file, the environment and the flags is reported at once.
struct SettingsError: Error, CustomStringConvertible {
    let description: String

    init(description: String) { self.description = description }

    init(problems: [String]) {
        description =
            problems.count == 1
            ? problems[0]
            : "\(problems.count) settings are not allowed:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}

/// The one settings model: defaults, a YAML file, the environment and `--set` flags, layered
/// in that order, each value kept with where it came from, and every value checked (types,
/// ranges, choices, unknown keys, librdkafka properties) before anything starts.
struct SettingsLoader {
    private(set) var values: [String: String] = [:]
    private(set) var sources: [String: SettingSource] = [:]
    /// The file the settings were read from, if any (logged at start).
    let file: String?
    /// What is wrong, collected so that every problem is reported at once.
    private var problems: [String] = []

    init(file: String?, environment: [String: String], overrides: [String]) throws(SettingsError) {
        for setting in SettingKey.all {
            values[setting.key] = setting.defaultValue
            sources[setting.key] = .defaultValue
        }
        self.file = file
        if let file { try readFile(file) }
        readEnvironment(environment)
        for override in overrides {
            guard let equals = override.firstIndex(of: "=") else {
                problems.append("--set takes key=value, got '\(override)'")
                continue
            }
            let key = String(override[..<equals])
            set(key, String(override[override.index(after: equals)...]), from: .flag("--set \(override)"))
        }
        validate()
        if !problems.isEmpty { throw SettingsError(problems: problems) }
    }

    private mutating func set(_ key: String, _ value: String, from source: SettingSource) {
        guard
            SettingKey.byKey[key] != nil
                || (key.hasPrefix(SettingKey.kafkaPropertyPrefix) && key.count > SettingKey.kafkaPropertyPrefix.count)
        else {
            problems.append(
                "unknown setting '\(key)' (from \(source))\(SettingKey.suggestion(for: key)); every setting is listed in config/zonestream.yaml"
            )
            return
        }
        values[key] = value
        sources[key] = source
    }

    private mutating func readFile(_ path: String) throws(SettingsError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason =
                !FileManager.default.fileExists(atPath: path)
                ? "does not exist"
                : !FileManager.default.isReadableFile(atPath: path)
                    ? "is not readable by this user (uid \(getuid()), gid \(getgid())): give its group read access, as the package installs it (0640 root:zonestream)"
                    : "cannot be read as UTF-8 text"
            throw SettingsError(description: "settings file '\(path)' \(reason) (--config)")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw SettingsError(description: "settings file '\(path)' is not valid YAML: \(error)")
        }
        // An empty or comment-only file: every default stands, overrides still apply.
        guard let root else { return }
        guard case .mapping = root else {
            throw SettingsError(description: "settings file '\(path)' must hold a mapping of settings (key: value)")
        }
        flatten(root, prefix: "", path: path)
    }

    private mutating func flatten(_ node: Node, prefix: String, path: String) {
        let source = SettingSource.file(path: path, line: node.mark?.line)
        switch node {
        case .mapping(let mapping):
            // `properties: {}` and the like: a mapping with nothing in it sets nothing.
            for (key, value) in mapping {
                guard let name = key.string else {
                    problems.append("\(SettingSource.file(path: path, line: key.mark?.line)): a key must be text")
                    continue
                }
                flatten(value, prefix: prefix.isEmpty ? name : "\(prefix).\(name)", path: path)
            }
        case .sequence(let sequence):
            set(prefix, sequence.compactMap(\.string).joined(separator: ","), from: source)
        case .scalar(let scalar):
            let isNull = scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
            // `properties:` left empty is a group with nothing in it, not a value.
            let isGroup =
                SettingKey.byKey[prefix] == nil
                && (SettingKey.kafkaPropertyPrefix.hasPrefix(prefix + ".")
                    || SettingKey.all.contains { $0.key.hasPrefix(prefix + ".") })
            if isNull && isGroup { return }
            set(prefix, isNull ? "" : scalar.string, from: source)
        case .alias:
            problems.append("\(source): aliases are not supported in settings")
        }
    }

    private mutating func readEnvironment(_ environment: [String: String]) {
        let byName = Dictionary(uniqueKeysWithValues: SettingKey.all.map { ($0.environmentName, $0.key) })
        let propertyPrefix = "ZONESTREAM_KAFKA_PROPERTIES_"
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("ZONESTREAM_") {
            if name.hasPrefix(propertyPrefix) {
                let property = name.dropFirst(propertyPrefix.count).lowercased().replacingOccurrences(
                    of: "_", with: ".")
                set(SettingKey.kafkaPropertyPrefix + property, value, from: .environment(name))
            } else if let key = byName[name] {
                set(key, value, from: .environment(name))
            } else {
                let suggestion = SettingKey.suggestion(forEnvironmentName: name)
                problems.append(
                    "unknown setting in environment variable \(name)\(suggestion); every setting is listed in config/zonestream.yaml"
                )
            }
        }
    }

    /// Checks every value against its rule, the normalization models as zone boundaries and
    /// the librdkafka properties with librdkafka itself.
    private mutating func validate() {
        for setting in SettingKey.all {
            let value = string(setting.key)
            guard setting.rule.accepts(value) else {
                problems.append(
                    "setting '\(setting.key)' = '\(maskedValue(setting.key))' (from \(maskedSource(setting.key))) is not allowed: it must be \(setting.rule.allowed)"
                )
                continue
            }
        }
        for quantity in Quantity.allCases {
            do { _ = try normalization(quantity) } catch { problems.append(error.description) }
        }
        if let collision = Topics.collision(
            groupID: string("group_id"), changelogNamed: !string("topics.changelog").isEmpty)
        {
            problems.append(collision)
        }
        if let violation = GuardedKafkaProperty.violation(
            in: kafkaProperties,
            source: { key in
                sources[SettingKey.kafkaPropertyPrefix + key].map { " (from \($0))" } ?? ""
            })
        {
            problems.append(violation)
        }
        do {
            try KafkaConfiguration(bootstrapServers: "", properties: kafkaProperties).validate()
        } catch {
            let key = error.operation.replacingOccurrences(of: "setting ", with: "")
            let source = sources[SettingKey.kafkaPropertyPrefix + key].map { " (from \($0))" } ?? ""
            problems.append("librdkafka property '\(key)'\(source) is not allowed: \(error.message)")
        }
    }

    func string(_ key: String) -> String { values[key] ?? "" }

    /// A validated whole number (every integer setting has passed its rule).
    func integer(_ key: String) -> Int { Int(string(key).trimmingCharacters(in: .whitespaces)) ?? 0 }

    /// A validated boolean.
    func boolean(_ key: String) -> Bool {
        SettingRule.boolean(string(key).trimmingCharacters(in: .whitespaces)) ?? false
    }

    /// The librdkafka properties given under `kafka.properties.`.
    var kafkaProperties: [String: String] {
        var properties: [String: String] = [:]
        for (key, value) in values where key.hasPrefix(SettingKey.kafkaPropertyPrefix) {
            properties[String(key.dropFirst(SettingKey.kafkaPropertyPrefix.count))] = value
        }
        return properties
    }

    func normalization(_ quantity: Quantity) throws(SettingsError) -> ZoneConfiguration? {
        let key = "normalize.\(quantity.name).boundaries"
        let text = string(key)
        guard !text.isEmpty else { return nil }
        let boundaries = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        do {
            return try ZoneConfiguration.validated(quantity: quantity, source: .normalized, boundaries: boundaries)
        } catch {
            throw SettingsError(
                description:
                    "setting '\(key)' = '\(text)' (from \(sources[key] ?? .defaultValue)) is not allowed: \(error)")
        }
    }

    /// The effective settings, one line each with where the value came from; secrets masked.
    var printout: String {
        values.keys.sorted().map { "\($0) = \(maskedValue($0))    # \(maskedSource($0))" }.joined(separator: "\n")
    }

    /// Every setting whose value is not its default, as log metadata: the value and where it
    /// came from, secrets masked (logged at start). A settings file that repeats a default
    /// changes nothing, and is not listed.
    var changedSettingsMetadata: [String: Logger.MetadataValue] {
        var metadata: [String: Logger.MetadataValue] = [:]
        for (key, source) in sources where source != .defaultValue && string(key) != SettingKey.byKey[key]?.defaultValue
        {
            metadata[key] = "\(maskedValue(key)) (\(maskedSource(key)))"
        }
        return metadata
    }

    /// The settings files that hold a secret (a token, a password) and that every user of the
    /// host may read: warned about at start, so a token is not left readable by others.
    var filesExposingSecrets: [String] {
        var paths: Set<String> = []
        for (key, source) in sources where isSecret(key) {
            guard case .file(let path, _) = source,
                let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let permissions = attributes[.posixPermissions] as? Int, permissions & 0o004 != 0
            else { continue }
            paths.insert(path)
        }
        return paths.sorted()
    }

    private func isSecret(_ key: String) -> Bool {
        ["password", "secret", "sasl.oauthbearer.config", "key.pem", "token"].contains { key.contains($0) }
            && !string(key).isEmpty
    }

    private func maskedValue(_ key: String) -> String { isSecret(key) ? "********" : string(key) }

    /// A flag's source quotes the flag, value and all.
    private func maskedSource(_ key: String) -> String {
        let source = "\(sources[key] ?? .defaultValue)"
        return isSecret(key) ? source.replacingOccurrences(of: string(key), with: "********") : source
    }
}

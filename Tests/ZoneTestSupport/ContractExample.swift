public import Foundation
public import ZoneEngine

/// One worked example of the contract (Tests/Fixtures/contract-examples), parsed with Foundation's
/// JSON reader so tests do not depend on the decoders they check.
public struct ContractExample: @unchecked Sendable {
    // @unchecked: the dictionaries hold only Foundation JSON values, never mutated after load.
    public let name: String
    public let description: String
    public let profiles: [String: [String: Any]]
    public let config: [String: Any]
    /// Each event's key (nil: no key) and value (a JSON object, or a raw string sent as is).
    public let events: [(key: String?, value: Any)]
    public let expectedZoneChanges: [[String: Any]]
    public let expectedFinished: [[String: Any]]
    public let expectedPersonSummaries: [[String: Any]]
    public let expectedTargetChanges: [[String: Any]]
    public let expectedClassSummaries: [[String: Any]]
    /// Records for `class-plans`, by class (the map key is the record's key).
    public let classPlans: [String: [String: Any]]
    /// (reason, index into events)
    public let expectedDeadLetters: [(reason: String, inputIndex: Int)]

    /// The folder holding the committed copy of the examples.
    public static var fixturesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/contract-examples")
    }

    /// The shared spec's folder beside the repository, when present.
    public static var sharedDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/spec/examples")
    }

    /// Every committed example.
    public static func all() throws -> [ContractExample] {
        let files = try FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        return try files.map { try load(fixturesDirectory.appendingPathComponent($0)) }
    }

    public static func load(_ url: URL) throws -> ContractExample {
        let data = try Data(contentsOf: url)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let expected = root["expected"] as? [String: Any] ?? [:]
        return ContractExample(
            name: url.deletingPathExtension().lastPathComponent,
            description: root["description"] as? String ?? "",
            profiles: root["profiles"] as? [String: [String: Any]] ?? [:],
            config: root["config"] as? [String: Any] ?? [:],
            events: (root["events"] as? [[String: Any]] ?? []).map { ($0["key"] as? String, $0["value"] ?? NSNull()) },
            expectedZoneChanges: expected["zone_changes"] as? [[String: Any]] ?? [],
            expectedFinished: expected["finished"] as? [[String: Any]] ?? [],
            expectedPersonSummaries: expected["person_summaries"] as? [[String: Any]] ?? [],
            expectedTargetChanges: expected["target_changes"] as? [[String: Any]] ?? [],
            expectedClassSummaries: expected["class_summaries"] as? [[String: Any]] ?? [],
            classPlans: root["class_plans"] as? [String: [String: Any]] ?? [:],
            expectedDeadLetters: (expected["dlq"] as? [[String: Any]] ?? []).map {
                ($0["reason"] as? String ?? "", $0["input_index"] as? Int ?? -1)
            })
    }

    /// The record value's bytes as a producer would send them.
    public func valueBytes(at index: Int) throws -> [UInt8] {
        let value = events[index].value
        if let text = value as? String { return Array(text.utf8) }
        return Array(try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]))
    }

    /// The same example with person ids renamed (`renames`: old id to new), in profiles, events
    /// and expected outputs: examples that give one id different profiles can then share a
    /// profile table.
    public func renamingPersons(_ renames: [String: String]) -> ContractExample {
        func renamed(_ object: [String: Any]) -> [String: Any] {
            var copy = object
            if let person = copy["person"] as? String, let new = renames[person] { copy["person"] = new }
            return copy
        }
        var profiles: [String: [String: Any]] = [:]
        for (person, profile) in self.profiles { profiles[renames[person] ?? person] = renamed(profile) }
        return ContractExample(
            name: name, description: description, profiles: profiles, config: config,
            events: events.map { ($0.key, ($0.value as? [String: Any]).map(renamed) ?? $0.value) },
            expectedZoneChanges: expectedZoneChanges.map(renamed), expectedFinished: expectedFinished.map(renamed),
            expectedPersonSummaries: expectedPersonSummaries.map(renamed),
            expectedTargetChanges: expectedTargetChanges.map(renamed),
            expectedClassSummaries: expectedClassSummaries.map { summary in
                var copy = summary
                copy["leaderboard"] = (summary["leaderboard"] as? [[String: Any]])?.map(renamed)
                return copy
            }, classPlans: classPlans,
            expectedDeadLetters: expectedDeadLetters)
    }

    /// The examples with every person id that an earlier example already gave a profile
    /// renamed (`lena` becomes `lena~08_effort`), so all can run on one profile table.
    public static func withDistinctPersons(_ examples: [ContractExample]) -> [ContractExample] {
        var seen: Set<String> = []
        return examples.map { example in
            var renames: [String: String] = [:]
            for person in example.profiles.keys where seen.contains(person) {
                renames[person] = "\(person)~\(example.name)"
            }
            seen.formUnion(example.profiles.keys.map { renames[$0] ?? $0 })
            return renames.isEmpty ? example : example.renamingPersons(renames)
        }
    }

    public var engineSettings: EngineSettings {
        var settings = EngineSettings()
        if let gap = config["max_gap_ms"] as? Int { settings.maxGapMs = Int64(gap) }
        if let dwell = config["zone_change_min_dwell_ms"] as? Int { settings.zoneChangeMinDwellMs = Int64(dwell) }
        if let dwell = config["target_min_dwell_ms"] as? Int { settings.targetMinDwellMs = Int64(dwell) }
        return settings
    }
}

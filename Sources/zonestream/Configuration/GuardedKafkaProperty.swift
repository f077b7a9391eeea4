import Foundation

/// librdkafka properties that the processing guarantees rest on. ZoneStream sets them itself;
/// a value under `kafka.properties` that would change what they promise is refused before
/// anything starts, naming the ZoneStream setting that controls it. Other properties pass
/// through to librdkafka as given.
struct GuardedKafkaProperty {
    let name: String
    /// Other names librdkafka reads as the same property (older spellings, topic-level forms).
    var aliases: [String] = []
    /// Values that keep the guarantees (lowercased); empty: no value may be given.
    let allowed: Set<String>
    /// The ZoneStream setting that controls what the property would change, and why.
    let instead: String

    static let all: [GuardedKafkaProperty] = [
        GuardedKafkaProperty(
            name: "enable.auto.commit", aliases: ["auto.commit.enable"], allowed: ["false"],
            instead: "offsets are committed only once their outputs are delivered (processing_guarantee)"),
        GuardedKafkaProperty(
            name: "enable.auto.offset.store", allowed: ["false"],
            instead: "offsets are stored only once their outputs are delivered (processing_guarantee)"),
        GuardedKafkaProperty(
            name: "isolation.level", allowed: ["read_committed"],
            instead: "state and outputs of aborted transactions must never be read (processing_guarantee)"),
        GuardedKafkaProperty(name: "group.id", allowed: [], instead: "set the consumer group with group_id"),
        GuardedKafkaProperty(
            name: "transactional.id", allowed: [],
            instead: "transactional ids come from transactional_id_prefix (processing_guarantee exactly_once)"),
        GuardedKafkaProperty(
            name: "acks", aliases: ["request.required.acks"], allowed: ["all", "-1"],
            instead: "an output counts as delivered only once every in-sync replica has it (processing_guarantee)"),
        GuardedKafkaProperty(
            name: "enable.idempotence", allowed: ["true"],
            instead: "a retried output must not be written twice (processing_guarantee)"),
    ]

    /// The first property in `properties` that would break a guarantee, described; nil when none.
    static func violation(in properties: [String: String], source: (String) -> String) -> String? {
        for guarded in all {
            for name in [guarded.name] + guarded.aliases {
                guard let value = properties[name] else { continue }
                let normalized = value.trimmingCharacters(in: .whitespaces).lowercased()
                if guarded.allowed.contains(normalized) { continue }
                let alias = name == guarded.name ? "" : " (librdkafka's other name for '\(guarded.name)')"
                return
                    "librdkafka property '\(name)'\(alias) = '\(value)'\(source(name)) is refused: \(guarded.instead)"
            }
        }
        return nil
    }
}

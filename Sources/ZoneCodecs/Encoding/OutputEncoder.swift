import CJansson
import Foundation
public import ZoneEngine

/// Encodes the contract's output events (docs/reference/contract.md) with jansson.
public enum OutputEncoder {
    typealias Build = JanssonBuilder

    /// The `zone-changes` event id: `<session>/<quantity>/<ts>`.
    public static func eventID(session: String, change: ZoneChange) -> String {
        "\(session)/\(change.quantity.name)/\(change.timestamp)"
    }

    /// A `zone_change` event for `change` of `session` (configuration and person read from
    /// it), written by ``ZoneChangeWriter``, the one writer of that format.
    public static func zoneChange(
        _ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration
    ) -> [UInt8] {
        var writer = ZoneChangeWriter()
        return writer.write(change, session: session, person: person, configuration: configuration)
    }

    /// A `workout_finished` event, written by ``WorkoutFinishedWriter``, the one writer of
    /// that format.
    public static func workoutFinished(_ summary: WorkoutSummary) -> [UInt8] {
        var writer = WorkoutFinishedWriter()
        return writer.write(summary)
    }

    /// The most of an input's key and of its value a dead-letter record carries, each
    /// (docs/reference/contract.md): both in base64 plus the envelope stay under Kafka's default 1 MB
    /// message limit, so a dead letter is always deliverable. The whole input stays in its
    /// topic at the partition and offset the record gives.
    public static let deadLetterBytesLimit = 262_144
    /// The most of the input's key a dead letter's own Kafka key carries.
    public static let deadLetterKeyLimit = 1024

    /// A `zonestream-dlq` record for an input record that could not be applied: its Kafka key
    /// (the input's, cut to ``deadLetterKeyLimit`` bytes) and its value. Key and value are
    /// cut to ``deadLetterBytesLimit`` bytes each, and then the record says `"truncated": true`.
    public static func deadLetter(
        _ rejection: Rejection, topic: String, partition: Int32, offset: Int64,
        key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?
    ) -> (key: [UInt8]?, value: [UInt8]) {
        func base64(_ bytes: UnsafeRawBufferPointer?) -> String? {
            bytes.map { Data($0.prefix(deadLetterBytesLimit)).base64EncodedString() }
        }
        let truncated = (key?.count ?? 0) > deadLetterBytesLimit || (value?.count ?? 0) > deadLetterBytesLimit
        let root = Build.object([
            "schema": Build.integer(1),
            "reason": Build.string(rejection.reason.rawValue),
            "detail": Build.string(rejection.detail),
            "topic": Build.string(topic),
            "partition": Build.integer(Int64(partition)),
            "offset": Build.integer(offset),
            "key_base64": Build.optionalString(base64(key)),
            "value_base64": Build.optionalString(base64(value)),
        ])
        if truncated { json_object_set_new(root, "truncated", json_true()) }
        return (key.map { Array($0.prefix(deadLetterKeyLimit)) }, Build.dump(root))
    }

    /// ``deadLetter(_:topic:partition:offset:key:value:)`` for byte arrays.
    public static func deadLetter(
        _ rejection: Rejection, topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8]?
    ) -> (key: [UInt8]?, value: [UInt8]) {
        func withBuffer<R>(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
            guard let bytes else { return body(nil) }
            return bytes.withUnsafeBytes { body($0) }
        }
        return withBuffer(key) { key in
            withBuffer(value) { value in
                deadLetter(rejection, topic: topic, partition: partition, offset: offset, key: key, value: value)
            }
        }
    }

    static func zone(_ index: Int, _ configuration: ZoneConfiguration) -> JanssonBuilder.Value {
        Build.object([
            "index": Build.integer(index + 1),
            "min": configuration.lowerBound(ofZone: index).map(Build.number),
            "max": configuration.upperBound(ofZone: index).map(Build.number),
        ])
    }

    static func configuration(_ configuration: ZoneConfiguration) -> JanssonBuilder.Value {
        Build.object([
            "source": Build.string(configuration.source.rawValue),
            "unit": Build.string(configuration.unit),
            "boundaries": Build.array(configuration.boundaries.values.map(Build.number)),
        ])
    }

    static func durations(_ durations: ZoneDurations, _ configuration: ZoneConfiguration) -> JanssonBuilder.Value {
        Build.array(
            (0..<configuration.zoneCount).map { index in
                Build.object([
                    "index": Build.integer(index + 1),
                    "min": configuration.lowerBound(ofZone: index).map(Build.number),
                    "max": configuration.upperBound(ofZone: index).map(Build.number),
                    "duration_ms": Build.integer(durations[index]),
                ])
            })
    }

    /// An object from ordered (key, value) pairs whose keys are only known at run time.
    static func keyed(_ pairs: [(String, JanssonBuilder.Value)]) -> JanssonBuilder.Value {
        let object = Build.object([:])
        for (key, value) in pairs { json_object_set_new(object, key, value) }
        return object
    }
}

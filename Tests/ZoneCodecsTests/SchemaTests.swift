import Foundation
import Testing
import ZoneTestSupport

/// The JSON Schemas in schemas/ against the contract's worked examples: every input ZoneStream
/// applies matches `workout-events`, every input refused for its shape does not, every profile
/// matches `zone-profiles`, and every expected output matches its topic's schema. (The outputs
/// ZoneStream itself produces are validated in the end-to-end tests.)
@Suite struct SchemaTests {
    /// Reasons a schema can see: the others (ranges, lengths, session state) are ZoneStream's checks.
    static let shapeReasons: Set<String> = ["malformed_json", "missing_field", "bad_type", "unknown_type"]

    @Test func workedExamplesMatchTheSchemas() throws {
        var applied: [String] = []
        var refusedForShape: [String] = []
        var profiles: [String] = []
        var changes: [String] = []
        var finished: [String] = []
        var summaries: [String] = []
        for example in try ContractExample.all() {
            let deadLettered = Dictionary(example.expectedDeadLetters.map { ($0.inputIndex, $0.reason) }) { first, _ in
                first
            }
            for index in example.events.indices {
                let text = String(decoding: try example.valueBytes(at: index), as: UTF8.self)
                switch deadLettered[index] {
                case nil: applied.append(text)
                case let reason? where Self.shapeReasons.contains(reason): refusedForShape.append(text)
                default: break
                }
            }
            profiles += try example.profiles.values.map(Self.text)
            changes += try example.expectedZoneChanges.map(Self.text)
            finished += try example.expectedFinished.map(Self.text)
            summaries += try example.expectedPersonSummaries.map(Self.text)
        }
        #expect(
            applied.count > 100 && !refusedForShape.isEmpty && !profiles.isEmpty && !changes.isEmpty
                && !finished.isEmpty)
        try SchemaValidator.validate(applied, schema: "workout-events")
        try SchemaValidator.validate(refusedForShape, schema: "workout-events", expectInvalid: true)
        try SchemaValidator.validate(profiles, schema: "zone-profiles")
        try SchemaValidator.validate(changes, schema: "zone-changes")
        try SchemaValidator.validate(finished, schema: "workouts-finished")
        #expect(!summaries.isEmpty)
        try SchemaValidator.validate(summaries, schema: "person-summaries")
    }

    /// The validator itself fails on a document that breaks a schema (so a pass means something).
    @Test func theValidatorRejectsABrokenOutput() throws {
        let broken = #"{"schema":1,"type":"zone_change","session":"s"}"#
        #expect(throws: SchemaValidator.Failure.self) { try SchemaValidator.validate([broken], schema: "zone-changes") }
        #expect(throws: SchemaValidator.Failure.self) {
            try SchemaValidator.validate([#"{"schema":1,"reason":"no_such_reason"}"#], schema: "zonestream-dlq")
        }
    }

    static func text(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}

/// Why an input record was dead-lettered. Raw values are the contract's strings;
/// the declaration order is the contract's precedence (the first that applies wins).
public enum DeadLetterReason: String, Sendable, CaseIterable, Comparable {
    case tooLarge = "too_large"
    case malformedJSON = "malformed_json"
    case missingField = "missing_field"
    case badType = "bad_type"
    case unknownType = "unknown_type"
    case invalidSession = "invalid_session"
    case keyMismatch = "key_mismatch"
    case badUnit = "bad_unit"
    case outOfRange = "out_of_range"
    case sessionFinished = "session_finished"
    case invalidTransition = "invalid_transition"
    case zonesAfterCollectionBegan = "zones_after_collection_began"
    case invalidZones = "invalid_zones"
    /// A plan that breaks the contract's rules, in a `session_start` (applied without it) or
    /// on `class-plans`.
    case invalidPlan = "invalid_plan"
    /// The record was applied, but an output it produced was refused by the broker for good
    /// (over the topic's size limit, not authorized); the session's state stays as applied.
    case outputRejected = "output_rejected"
    /// Not in the contract's table: the instance's cap on live sessions was reached
    /// (see docs/explanation/decisions.md); the record is dead-lettered, never dropped.
    case sessionLimit = "session_limit"
    /// Not in the contract's table: the person stage's cap on persons (`max_persons`) was
    /// reached and no person could be made room for; the workout stays on `workouts-finished`.
    case personLimit = "person_limit"
    /// Not in the contract's table: the class stage's cap on classes (`max_classes`) was
    /// reached and no class could be made room for; the workout stays on `workouts-finished`.
    case classLimit = "class_limit"

    public static func < (lhs: DeadLetterReason, rhs: DeadLetterReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A refusal with its reason and a human-readable detail.
public struct Rejection: Sendable, Equatable, Error {
    public let reason: DeadLetterReason
    public let detail: String

    public init(_ reason: DeadLetterReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}

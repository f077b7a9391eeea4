/// What applying events produced, in order, as values: the engine appends, its caller reads
/// and encodes them, then empties the buffer for the next record.
///
/// A buffer the caller lends (`inout`) rather than an array returned per call: emptied with
/// ``removeAll()`` it keeps its capacity, so the per-sample path allocates nothing once the
/// buffer has grown to a record's outputs. The engine never calls out to its caller.
public struct EngineOutputs: Sendable {
    /// One output of the engine.
    public enum Output: Sendable, Equatable {
        /// A zone changed in `session`, with the session's person and zones for the quantity
        /// (its parts rather than the session, which is far larger).
        case zoneChange(ZoneChange, session: String, person: String?, configuration: ZoneConfiguration)
        /// A session's target state for a quantity changed (its plan's live target).
        case targetChange(TargetChange, session: String, person: String?, sessionClass: String?)
        /// A session finished.
        case finished(WorkoutSummary)
        /// The event could not be applied (or applied only in part) and must be dead-lettered.
        case rejected(Rejection)
    }

    /// Everything produced since the last ``removeAll()``, oldest first.
    public private(set) var all: [Output] = []

    public init() {}

    /// Whether nothing was produced.
    public var isEmpty: Bool { all.isEmpty }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() { all.removeAll(keepingCapacity: true) }

    mutating func append(_ output: Output) { all.append(output) }

    /// Adds a rejection found outside the engine (an input that did not decode), so that all of
    /// a record's outputs go out the same way.
    public mutating func reject(_ rejection: Rejection) { all.append(.rejected(rejection)) }

    public var zoneChanges: [ZoneChange] {
        all.compactMap { if case .zoneChange(let change, _, _, _) = $0 { change } else { nil } }
    }

    public var targetChanges: [TargetChange] {
        all.compactMap { if case .targetChange(let change, _, _, _) = $0 { change } else { nil } }
    }

    public var finished: [WorkoutSummary] {
        all.compactMap { if case .finished(let summary) = $0 { summary } else { nil } }
    }

    public var rejections: [Rejection] {
        all.compactMap { if case .rejected(let rejection) = $0 { rejection } else { nil } }
    }
}

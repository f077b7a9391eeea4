/// What applying events produced, as values: the engine appends, its caller reads and encodes
/// them, then empties the buffer for the next record.
///
/// A buffer the caller lends (`inout`) rather than an array returned per call: emptied with
/// ``removeAll()`` it keeps its capacity, so the per-sample path allocates nothing once the
/// buffer has grown to a record's outputs. One array per kind of output rather than one of an
/// enum: the frequent zone change is read in place, where an enum's payload would be copied
/// out (with its strings retained) each time it is read. Each array keeps its outputs in the
/// order they were produced; outputs of different kinds go to different topics, so there is no
/// order between them. The engine never calls out to its caller.
public struct EngineOutputs: Sendable {
    /// A zone changed in `session`, with the session's person and zones for the quantity
    /// (its parts rather than the session, which is far larger).
    public struct ZoneChangeOutput: Sendable, Equatable {
        public let change: ZoneChange
        public let session: String
        public let person: String?
        public let configuration: ZoneConfiguration
    }

    /// A session's target state for a quantity changed (its plan's live target).
    public struct TargetChangeOutput: Sendable, Equatable {
        public let change: TargetChange
        public let session: String
        public let person: String?
        public let sessionClass: String?
    }

    public private(set) var zoneChanges: [ZoneChangeOutput] = []
    public private(set) var targetChanges: [TargetChangeOutput] = []
    /// Sessions that finished.
    public private(set) var finished: [WorkoutSummary] = []
    /// Events that could not be applied (or applied only in part) and must be dead-lettered.
    public private(set) var rejections: [Rejection] = []

    public init() {}

    /// Whether nothing was produced.
    public var isEmpty: Bool {
        zoneChanges.isEmpty && targetChanges.isEmpty && finished.isEmpty && rejections.isEmpty
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() {
        Self.empty(&zoneChanges)
        Self.empty(&targetChanges)
        Self.empty(&finished)
        Self.empty(&rejections)
    }

    /// Removes every element from the end, keeping the capacity: a record has a handful of
    /// outputs, and `removeAll(keepingCapacity:)` goes through the array's general range
    /// replacement, which cost more than the outputs themselves.
    @inline(__always)
    private static func empty<Element>(_ array: inout [Element]) {
        while !array.isEmpty { array.removeLast() }
    }

    mutating func zoneChanged(
        _ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration
    ) {
        zoneChanges.append(
            ZoneChangeOutput(change: change, session: session, person: person, configuration: configuration))
    }

    mutating func targetChanged(_ change: TargetChange, session: String, person: String?, sessionClass: String?) {
        targetChanges.append(
            TargetChangeOutput(change: change, session: session, person: person, sessionClass: sessionClass))
    }

    mutating func finished(_ summary: WorkoutSummary) { finished.append(summary) }

    /// Adds a rejection, from the engine or from outside it (an input that did not decode), so
    /// that all of a record's outputs go out the same way.
    public mutating func reject(_ rejection: Rejection) { rejections.append(rejection) }
}

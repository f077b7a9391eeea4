/// What applying events produced, as plain values: the engine appends, its caller reads and
/// encodes them, then empties the buffer for the next record.
///
/// A buffer the caller lends (`inout`) rather than an array returned per call: emptied with
/// ``removeAll()`` it keeps its capacity, so the per-sample path allocates nothing once the
/// buffer has grown to a record's outputs. Each live output names its session
/// (``SessionIdentity``, shared with the session, not copied). One array per kind of output:
/// the frequent zone change is read in place, where an enum's payload would be copied out each
/// time it is read. Each array keeps its outputs in the order they were produced; outputs of
/// different kinds go to different topics, so there is no order between them. Readers that
/// keep outputs over many records (the load generator's oracle, tests) append one buffer to
/// another. The engine never calls out to its caller.
public struct EngineOutputs: Sendable {
    /// A zone changed in a session, with the session's zones for the quantity.
    public struct ZoneChangeOutput: Sendable {
        public let change: ZoneChange
        public let configuration: ZoneConfiguration
        public let session: SessionIdentity
    }

    /// A session's target state for a quantity changed (its plan's live target).
    public struct TargetChangeOutput: Sendable {
        public let change: TargetChange
        public let session: SessionIdentity
    }

    public private(set) var zoneChanges: [ZoneChangeOutput] = []
    public private(set) var targetChanges: [TargetChangeOutput] = []
    /// Sessions that finished.
    public private(set) var finished: [WorkoutSummary] = []
    /// Events that could not be applied (or applied only in part) and must be dead-lettered.
    public private(set) var rejections: [Rejection] = []

    public init() {}

    /// Whether nothing was produced. Inlinable: the caller asks after every record.
    @inlinable
    public var isEmpty: Bool {
        zoneChanges.isEmpty && targetChanges.isEmpty && finished.isEmpty && rejections.isEmpty
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() {
        if !zoneChanges.isEmpty { Self.empty(&zoneChanges) }
        if !targetChanges.isEmpty { Self.empty(&targetChanges) }
        if !finished.isEmpty { Self.empty(&finished) }
        if !rejections.isEmpty { Self.empty(&rejections) }
    }

    /// Adds `other`'s outputs after these (a reader keeping a run's outputs).
    public mutating func append(contentsOf other: EngineOutputs) {
        zoneChanges += other.zoneChanges
        targetChanges += other.targetChanges
        finished += other.finished
        rejections += other.rejections
    }

    /// Removes every element from the end, keeping the capacity: a record's outputs are a
    /// handful, and `removeAll(keepingCapacity:)` goes through the array's general range
    /// replacement, which cost more than the outputs themselves.
    @inline(__always)
    private static func empty<Element>(_ array: inout [Element]) {
        while !array.isEmpty { array.removeLast() }
    }

    mutating func zoneChanged(_ change: ZoneChange, configuration: ZoneConfiguration, session: SessionIdentity) {
        zoneChanges.append(ZoneChangeOutput(change: change, configuration: configuration, session: session))
    }

    mutating func targetChanged(_ change: TargetChange, session: SessionIdentity) {
        targetChanges.append(TargetChangeOutput(change: change, session: session))
    }

    mutating func finished(_ summary: WorkoutSummary) { finished.append(summary) }

    /// Adds a rejection, from the engine or from outside it (an input that did not decode), so
    /// that all of a record's outputs go out the same way.
    public mutating func reject(_ rejection: Rejection) { rejections.append(rejection) }
}

/// What applying events produced, as values: the engine appends, its caller reads and encodes
/// them, then empties the buffer for the next record.
///
/// A buffer the caller lends (`inout`) rather than an array returned per call: emptied with
/// ``removeAll()`` it keeps its capacity, so the per-sample path allocates nothing once the
/// buffer has grown to a record's outputs. One array per kind of output rather than one of an
/// enum: the frequent zone change is read in place, where an enum's payload would be copied
/// out each time it is read. The live outputs (zone and target changes) are plain values: whose
/// they are is kept once per session in ``sessions`` and each output holds its place there,
/// so that appending, reading and removing an output retains and releases nothing, and a
/// sample with a zone and a target change retains its session's identity once. Each array keeps its outputs in the order they were
/// produced; outputs of different kinds go to different topics, so there is no order between
/// them. The engine never calls out to its caller.
public struct EngineOutputs: Sendable {
    /// A zone changed in a session, with the session's zones for the quantity; its session is
    /// ``EngineOutputs/session(of:)-(ZoneChangeOutput)``.
    public struct ZoneChangeOutput: Sendable {
        public let change: ZoneChange
        public let configuration: ZoneConfiguration
        /// The session's place in ``EngineOutputs/sessions``.
        let sessionIndex: Int32
    }

    /// A session's target state for a quantity changed (its plan's live target); its session
    /// is ``EngineOutputs/session(of:)-(TargetChangeOutput)``.
    public struct TargetChangeOutput: Sendable {
        public let change: TargetChange
        /// The session's place in ``EngineOutputs/sessions``.
        let sessionIndex: Int32
    }

    /// The sessions the live outputs belong to, each once in a row of outputs of the same
    /// session.
    public private(set) var sessions: [SessionIdentity] = []
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

    /// The session `output` belongs to.
    @inline(__always)
    public func session(of output: ZoneChangeOutput) -> SessionIdentity { sessions[Int(output.sessionIndex)] }

    /// The session `output` belongs to.
    @inline(__always)
    public func session(of output: TargetChangeOutput) -> SessionIdentity { sessions[Int(output.sessionIndex)] }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() {
        Self.empty(&sessions)
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

    /// The place in ``sessions`` of `identity`: the last one when it is the same object, else
    /// a new one.
    @inline(__always)
    mutating func sessionIndex(of identity: SessionIdentity) -> Int32 {
        let count = sessions.count
        if count > 0 && sessions[count - 1] === identity { return Int32(truncatingIfNeeded: count - 1) }
        sessions.append(identity)
        return Int32(truncatingIfNeeded: count)
    }

    mutating func zoneChanged(_ change: ZoneChange, configuration: ZoneConfiguration, sessionIndex: Int32) {
        zoneChanges.append(ZoneChangeOutput(change: change, configuration: configuration, sessionIndex: sessionIndex))
    }

    mutating func targetChanged(_ change: TargetChange, sessionIndex: Int32) {
        targetChanges.append(TargetChangeOutput(change: change, sessionIndex: sessionIndex))
    }

    mutating func finished(_ summary: WorkoutSummary) { finished.append(summary) }

    /// Adds a rejection, from the engine or from outside it (an input that did not decode), so
    /// that all of a record's outputs go out the same way.
    public mutating func reject(_ rejection: Rejection) { rejections.append(rejection) }
}

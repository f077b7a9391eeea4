/// What applying events produced, as values: the engine appends, its caller reads and encodes
/// them, then empties the buffer for the next record.
///
/// A buffer the caller lends (`inout`) rather than an array returned per call: emptied with
/// ``removeAll()`` it keeps its capacity, so the per-sample path allocates nothing once the
/// buffer has grown to a record's outputs. Noncopyable: one owner (a worker) lends it record
/// after record, and the frequent outputs, zone and target changes, sit in ``OutputRow``s,
/// which append and empty without the copy-on-write check an array makes at each. Readers
/// that keep outputs over many records copy them into ``RecordedOutputs``.
///
/// One row per kind of output rather than one of an enum: the frequent zone change is read in
/// place, where an enum's payload would be copied out each time it is read. The live outputs
/// are plain values, so appending, reading and removing one retains and releases nothing:
/// whose they are is the session's ``SessionIdentity``, kept once for a row of outputs of one
/// session and found with ``session(of:)-(ZoneChangeOutput)``. A record's outputs are one
/// session's, so the first identity has a field of its own rather than a place in an array.
/// Each row keeps its outputs in the order they were produced; outputs of different kinds go
/// to different topics, so there is no order between them. The engine never calls out to its
/// caller.
public struct EngineOutputs: ~Copyable, Sendable {
    /// A zone changed in a session, with the session's zones for the quantity; its session is
    /// ``EngineOutputs/session(of:)-(ZoneChangeOutput)``.
    public struct ZoneChangeOutput: Sendable {
        public let change: ZoneChange
        public let configuration: ZoneConfiguration
        /// The session's place among the outputs' sessions.
        @usableFromInline let sessionIndex: Int32
    }

    /// A session's target state for a quantity changed (its plan's live target); its session
    /// is ``EngineOutputs/session(of:)-(TargetChangeOutput)``.
    public struct TargetChangeOutput: Sendable {
        public let change: TargetChange
        /// The session's place among the outputs' sessions.
        @usableFromInline let sessionIndex: Int32
    }

    /// The session of the first live outputs (place 0), and of the others (place 1 on), each
    /// once in a row of outputs of one session.
    @usableFromInline var firstSession: SessionIdentity?
    @usableFromInline var otherSessions: [SessionIdentity] = []
    public private(set) var zoneChanges = OutputRow<ZoneChangeOutput>()
    public private(set) var targetChanges = OutputRow<TargetChangeOutput>()
    /// Sessions that finished.
    public private(set) var finished: [WorkoutSummary] = []
    /// Events that could not be applied (or applied only in part) and must be dead-lettered.
    public private(set) var rejections: [Rejection] = []

    public init() {}

    /// Whether nothing was produced. Inlinable, as are the sessions' reads: the caller asks
    /// after every record, and an identity returned from a call is retained and released.
    @inlinable
    public var isEmpty: Bool {
        zoneChanges.isEmpty && targetChanges.isEmpty && finished.isEmpty && rejections.isEmpty
    }

    /// The session `output` belongs to.
    @inlinable
    public func session(of output: ZoneChangeOutput) -> SessionIdentity { session(at: output.sessionIndex) }

    /// The session `output` belongs to.
    @inlinable
    public func session(of output: TargetChangeOutput) -> SessionIdentity { session(at: output.sessionIndex) }

    @inlinable
    func session(at index: Int32) -> SessionIdentity {
        // Checked against nil, then unwrapped without a second check: a force unwrap (or a
        // binding) here retains and releases the identity at every read.
        if index == 0 && firstSession != nil { return firstSession.unsafelyUnwrapped }
        return otherSessions[Int(index) - 1]
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() {
        firstSession = nil
        if !otherSessions.isEmpty { Self.empty(&otherSessions) }
        zoneChanges.removeAll()
        targetChanges.removeAll()
        if !finished.isEmpty { Self.empty(&finished) }
        if !rejections.isEmpty { Self.empty(&rejections) }
    }

    /// Removes every element from the end, keeping the capacity: the rare outputs are a
    /// handful, and `removeAll(keepingCapacity:)` goes through the array's general range
    /// replacement, which cost more than the outputs themselves.
    @inline(__always)
    private static func empty<Element>(_ array: inout [Element]) {
        while !array.isEmpty { array.removeLast() }
    }

    /// The place of `identity` among the outputs' sessions: the last one when it is the same
    /// object, else a new one.
    @inline(__always)
    mutating func sessionIndex(of identity: SessionIdentity) -> Int32 {
        if firstSession === identity { return 0 }
        if firstSession == nil {
            firstSession = identity
            return 0
        }
        return otherSessionIndex(of: identity)
    }

    /// The place of a session other than the first: outputs of several sessions in one buffer
    /// (an idle sweep), rare.
    @inline(never)
    private mutating func otherSessionIndex(of identity: SessionIdentity) -> Int32 {
        let count = otherSessions.count
        if count > 0 && otherSessions[count - 1] === identity { return Int32(truncatingIfNeeded: count) }
        otherSessions.append(identity)
        return Int32(truncatingIfNeeded: count + 1)
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

/// Outputs kept over many records, each live output with its session: for readers that check
/// a run's outputs at its end (the load generator's oracle, tests) rather than encode each
/// record's as the processor does. ``EngineOutputs`` is one record's, lent to the engine and
/// emptied after each; this is an ordinary copyable value.
public struct RecordedOutputs: Sendable {
    /// A zone change with the session it belongs to.
    public struct ZoneChangeRecord: Sendable {
        public let change: ZoneChange
        public let configuration: ZoneConfiguration
        public let session: SessionIdentity
    }

    /// A target change with the session it belongs to.
    public struct TargetChangeRecord: Sendable {
        public let change: TargetChange
        public let session: SessionIdentity
    }

    public private(set) var zoneChanges: [ZoneChangeRecord] = []
    public private(set) var targetChanges: [TargetChangeRecord] = []
    public private(set) var finished: [WorkoutSummary] = []
    public private(set) var rejections: [Rejection] = []

    public init() {}

    /// Adds one record's outputs.
    public mutating func record(_ outputs: borrowing EngineOutputs) {
        for index in outputs.zoneChanges.indices {
            let output = outputs.zoneChanges[index]
            zoneChanges.append(
                ZoneChangeRecord(
                    change: output.change, configuration: output.configuration, session: outputs.session(of: output)))
        }
        for index in outputs.targetChanges.indices {
            let output = outputs.targetChanges[index]
            targetChanges.append(TargetChangeRecord(change: output.change, session: outputs.session(of: output)))
        }
        finished += outputs.finished
        rejections += outputs.rejections
    }
}

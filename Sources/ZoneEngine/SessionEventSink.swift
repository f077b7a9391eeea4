/// Receives what the engine produces. The processor's sink encodes and produces;
/// tests' sinks record. Called synchronously on the owning worker's thread.
public protocol SessionEventSink {
    /// A zone changed in `session`, whose person and zones for the quantity are given. The
    /// session's parts rather than the session: passing the session copied all of it for every
    /// zone change (a fifth of the store's time on a workout that changes zone often).
    mutating func zoneChanged(_ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration)
    /// A session's target state for a quantity changed (its plan's live target changes).
    mutating func targetChanged(_ change: TargetChange, session: String, person: String?, sessionClass: String?)
    /// A session finished.
    mutating func workoutFinished(_ summary: WorkoutSummary)
    /// The event could not be applied (or applied only in part) and must be dead-lettered.
    mutating func rejected(_ rejection: Rejection)
    /// Whether a new session may start (a cap on live sessions); refused ones are
    /// dead-lettered as `session_limit`. Counts the session as live when it answers true.
    mutating func admitSession(_ id: String) -> Bool
}

extension SessionEventSink {
    /// No cap by default.
    public mutating func admitSession(_ id: String) -> Bool { true }
}

/// A sink that keeps everything, in order: for tests, the demo and the load generator's oracle.
public struct RecordingSink: SessionEventSink, Sendable {
    public enum Output: Sendable, Equatable {
        case zoneChange(ZoneChange, session: String, person: String?, configuration: ZoneConfiguration)
        case targetChange(TargetChange, session: String, person: String?, sessionClass: String?)
        case finished(WorkoutSummary)
        case rejected(Rejection)
    }

    public private(set) var outputs: [Output] = []

    public init() {}

    public mutating func zoneChanged(
        _ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration
    ) {
        outputs.append(.zoneChange(change, session: session, person: person, configuration: configuration))
    }

    public mutating func targetChanged(
        _ change: TargetChange, session: String, person: String?, sessionClass: String?
    ) {
        outputs.append(.targetChange(change, session: session, person: person, sessionClass: sessionClass))
    }

    public mutating func workoutFinished(_ summary: WorkoutSummary) { outputs.append(.finished(summary)) }

    public mutating func rejected(_ rejection: Rejection) { outputs.append(.rejected(rejection)) }

    public var zoneChanges: [ZoneChange] {
        outputs.compactMap { if case .zoneChange(let change, _, _, _) = $0 { change } else { nil } }
    }

    public var targetChanges: [TargetChange] {
        outputs.compactMap { if case .targetChange(let change, _, _, _) = $0 { change } else { nil } }
    }

    public var finished: [WorkoutSummary] {
        outputs.compactMap { if case .finished(let summary) = $0 { summary } else { nil } }
    }

    public var rejections: [Rejection] {
        outputs.compactMap { if case .rejected(let rejection) = $0 { rejection } else { nil } }
    }

    public mutating func removeAll() { outputs.removeAll() }
}

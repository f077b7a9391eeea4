/// What the load generator sends: a gym class per wave of members, with optional faults.
public struct TrafficPlan: Sendable {
    public var members = 100
    /// Simulated seconds each session lasts.
    public var sessionSeconds = 300
    public var seed: UInt64 = 1
    /// Fractions (0...1) of samples dropped, sent twice, sent late, or replaced by garbage.
    public var dropoutFraction = 0.0
    public var duplicateFraction = 0.0
    public var lateFraction = 0.0
    public var malformedFraction = 0.0
    /// Send heart rate in `sample_series` of this many values (1: single samples).
    public var seriesLength = 1
    /// Session ids get this prefix, so runs do not collide.
    public var sessionPrefix = "lg"
    /// Person ids get this prefix (the session prefix when nil): plans that share it share
    /// their members, so each member's workouts over several classes build a history.
    public var personPrefix: String?
    /// Simulated start time of the class, ms since the epoch.
    public var startMs: Int64 = 1_717_200_000_000

    public init() {}

    /// Whether the traffic is clean (no faults), so the oracle's expectations are exact.
    public var isClean: Bool {
        dropoutFraction == 0 && duplicateFraction == 0 && lateFraction == 0 && malformedFraction == 0
    }
}

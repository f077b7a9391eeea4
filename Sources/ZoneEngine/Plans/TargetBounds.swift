/// A step's target for one quantity compiled against the track's zones into two values: a
/// sample below `lower` is below the target, at or above `upper` above it, in it otherwise.
///
/// A zone target becomes the lower bounds of its first zone and of the zone after its last,
/// so a sample's status is two comparisons of its value, whatever the kind of target. It
/// holds only while the track's zones stay as they were compiled against, which they do
/// from the track's first sample on (zones are refused once samples were accepted); the
/// target track compiles a step's bounds when a sample moves into the step.
/// ``PlanTarget/status(of:zone:zoneCount:)`` is the rule these bounds give the answer of.
struct TargetBounds: Sendable {
    let lower: Double
    let upper: Double
    /// False when no sample has a status: no target, or a zone target without zones.
    let hasStatus: Bool

    /// No target.
    static let none = TargetBounds(lower: 0, upper: 0, hasStatus: false)

    private init(lower: Double, upper: Double, hasStatus: Bool) {
        (self.lower, self.upper, self.hasStatus) = (lower, upper, hasStatus)
    }

    init(_ target: PlanTarget?, zones: ZoneConfiguration?) {
        switch target {
        case nil: self = .none
        case .values(let minimum, let maximum):
            self.init(lower: minimum ?? -.infinity, upper: maximum ?? .infinity, hasStatus: true)
        case .zones(let low, let high):
            guard let zones else {
                self = .none
                return
            }
            // Zone numbers are 1-based and a number past the last zone means the last zone.
            // A value is in zone number n when n - 1 boundaries are at or below it.
            let count = zones.boundaries.count
            let first = min(low, count + 1)
            let last = min(high, count + 1)
            let lower = first <= 1 ? -Double.infinity : zones.boundaries[first - 2]
            let upper: Double =
                if last > count { .infinity } else if last < 1 { -.infinity } else { zones.boundaries[last - 1] }
            self.init(lower: lower, upper: upper, hasStatus: true)
        }
    }

    /// The values with `status`: [low, high). Below is decided first, so a value under
    /// `lower` is below even past `upper`.
    func values(with status: TargetStatus) -> (low: Double, high: Double) {
        switch status {
        case .in: (lower, upper)
        case .below: (-.infinity, lower)
        case .above: (max(lower, upper), .infinity)
        }
    }

    /// Where `value` stands against the target; nil when the target gives no status.
    @inline(__always)
    func status(of value: Double) -> TargetStatus? {
        guard hasStatus else { return nil }
        if value < lower { return .below }
        if value >= upper { return .above }
        return .in
    }
}

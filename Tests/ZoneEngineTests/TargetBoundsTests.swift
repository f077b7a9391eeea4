import PropertyBased
import Testing

@testable import ZoneEngine

/// A sample's status is two comparisons of its value with bounds compiled once per step; these
/// check them against the contract's rule as it reads (``PlanTarget/status(of:zone:zoneCount:)``),
/// for zone targets that run past the last zone or start below the first, value targets open on
/// either side or empty, and values on the boundaries themselves.
@Suite struct TargetBoundsTests {
    /// Two to eight ascending boundaries (three to nine zones).
    static let boundaries = Gen.int(in: 1...30).array(of: 2...8).map { steps in
        steps.reduce(into: [Double]()) { bounds, step in bounds.append((bounds.last ?? 90) + Double(step)) }
    }
    static let target = Gen.oneOf(
        zip(Gen.int(in: -1...11), Gen.int(in: -1...11)).map { PlanTarget.zones(low: $0, high: $1) },
        zip(Gen.int(in: 80...330).optional, Gen.int(in: 80...330).optional).map {
            PlanTarget.values(minimum: $0.map(Double.init), maximum: $1.map(Double.init))
        })

    @Test func theCompiledBoundsGiveTheContractsStatus() async {
        await propertyCheck(count: 500, input: zip(Self.boundaries, Self.target, Gen.int(in: 60...360).array(of: 40))) {
            boundaries, target, values in
            guard
                let zones = try? ZoneConfiguration.validated(quantity: .heartRate, source: .app, boundaries: boundaries)
            else { return }
            let bounds = TargetBounds(target, zones: zones)
            // Every boundary and every bound itself, besides the generated values.
            let probes = values.map(Double.init) + boundaries + [bounds.lower, bounds.upper].filter(\.isFinite)
            for value in probes {
                let expected = target.status(of: value, zone: zones.zoneIndex(of: value), zoneCount: zones.zoneCount)
                #expect(bounds.status(of: value) == expected, "\(target) on \(boundaries) at \(value)")
                guard let status = expected else { continue }
                let range = bounds.values(with: status)
                #expect(range.low <= value && value < range.high, "\(status) range \(range) misses \(value)")
                for other in probes where range.low <= other && other < range.high {
                    #expect(bounds.status(of: other) == status, "\(other) in the \(status) range \(range)")
                }
            }
        }
    }

    /// Without zones a zone target gives no status, as the rule says; a value target does.
    @Test func withoutZonesOnlyAValueTargetGivesAStatus() {
        #expect(TargetBounds(.zones(low: 2, high: 3), zones: nil).status(of: 150) == nil)
        #expect(TargetBounds(.values(minimum: 100, maximum: nil), zones: nil).status(of: 150) == .in)
        #expect(TargetBounds(nil, zones: nil).status(of: 150) == nil)
    }
}

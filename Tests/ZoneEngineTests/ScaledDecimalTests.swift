import Foundation
import Testing

@testable import ZoneEngine

/// The system zones in whole numbers (``ScaledDecimal``) against the `Decimal` arithmetic
/// they replace on the common path: the same boundaries for every profile where the fast path
/// answers, and it answers for the metrics people enter.
@Suite struct ScaledDecimalTests {
    /// xorshift64*: enough randomness for inputs, no dependency.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// A metric as people write it (whole, one to three places) or an awkward one.
    static func metric(_ random: inout Random, around center: Double) -> Double? {
        switch random.below(12) {
        case 0: return nil
        case 1:
            return [
                0, -5, 0.1, 1e-7, 99_999.999_999, 100_000, 1e6, 123.456_789_1, .nan, .infinity, -0.0,
                .leastNonzeroMagnitude,
            ][
                random.below(12)]
        case 2, 3, 4: return (center + Double(random.below(200)) - 100).rounded()
        default:
            let places = 1 + random.below(3)
            let scale = pow(10, Double(places))
            return ((center + Double(random.below(200)) - 100) * scale + Double(random.below(1000))).rounded() / scale
        }
    }

    @Test func wholeNumbersGiveTheDecimalResults() {
        var random = Random(state: 0x5EED_2026_1124)
        var answered = 0
        var plain = 0
        for _ in 0..<20_000 {
            let profile = PersonProfile(
                person: "p", age: Self.metric(&random, around: 45), restingHeartRate: Self.metric(&random, around: 60),
                maximumHeartRate: Self.metric(&random, around: 185),
                functionalThresholdPower: Self.metric(&random, around: 240))
            if let fast = ScaledDecimal.heartRateBoundaries(for: profile) {
                answered += 1
                #expect(fast == SystemZones.heartRateBoundaries(for: profile), "\(profile)")
            }
            if let fast = ScaledDecimal.powerBoundaries(for: profile) {
                #expect(fast == SystemZones.powerBoundaries(for: profile), "\(profile)")
            }
            let isPlain = [profile.age, profile.maximumHeartRate, profile.restingHeartRate].allSatisfy { value in
                value.map { $0 > 0 && $0 < 1000 && ($0 * 1000).rounded() == $0 * 1000 } ?? true
            }
            if isPlain && (profile.age != nil || profile.maximumHeartRate != nil) { plain += 1 }
        }
        // Every profile of plain metrics is answered without `Decimal`.
        #expect(answered >= plain, "answered \(answered) of \(plain) plain profiles")
    }

    @Test func halvesRoundAwayFromZeroAndPlacesAreTheShortestText() {
        #expect(ScaledDecimal(0.7) == ScaledDecimal(mantissa: 7, places: 1))
        #expect(ScaledDecimal(181.4) == ScaledDecimal(mantissa: 1814, places: 1))
        #expect(ScaledDecimal(1e-7) == nil)
        #expect(ScaledDecimal(100_000) == nil)
        #expect(ScaledDecimal.rounded(1155, places: 1) == 116)
        #expect(ScaledDecimal.rounded(-1155, places: 1) == -116)
        #expect(ScaledDecimal.rounded(1154, places: 1) == 115)
        // 0.7 * 165 = 115.5 exactly: 116, where binary arithmetic gives 115.49999999999999.
        #expect(
            ScaledDecimal.heartRateBoundaries(for: PersonProfile(person: "p", maximumHeartRate: 165)) == [
                99, 116, 132, 149,
            ])
    }
}

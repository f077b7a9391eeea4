/// What a session's heart-rate effort is counted against (docs/reference/contract.md, "Effort"),
/// read from the profile once, when the session starts: the maximum heart rate, the lower
/// bounds of intensity bands 1 to 5, and Keytel's calorie formula when the profile also has
/// age, weight and sex.
///
/// Immutable, so copies of a session (for the changelog, for live views) share one instance.
public final class HeartRateEffortParameters: Sendable {
    /// The maximum the bands are fractions of: `max_hr`, else 208 - 0.7 * age, not rounded.
    public let maximumHeartRate: Double
    /// The maximum as the exact decimal it is, when it fits ``ScaledDecimal`` (nearly always).
    let exactMaximum: ScaledDecimal?
    /// The smallest double in band 1 ... band 5: a value v is in band k when v >= floor k-1.
    let bandFloors: InlineArray<5, Double>
    let calories: CalorieFormula?
    /// The heart rate above which the calorie formula's rate is above 0 (infinity without a
    /// formula): the per-sample path compares with it instead of working out the rate.
    let calorieFloor: Double

    /// The effort parameters of `profile`, nil when it gives no usable maximum.
    static func make(from profile: PersonProfile?) -> HeartRateEffortParameters? {
        guard let profile else { return nil }
        if let found = ScaledDecimal.maximumHeartRate(for: profile) {
            guard let exact = found else {
                return SystemZones.maximumHeartRate(for: profile).map {
                    HeartRateEffortParameters(approximateMaximum: $0, calories: CalorieFormula(profile))
                }
            }
            return HeartRateEffortParameters(exactMaximum: exact, calories: CalorieFormula(profile))
        }
        return nil
    }

    /// Band floors from an exact maximum M / 10^p: band k starts at k * M / 10^(p+1), and its
    /// floor is the smallest double at or above that ratio (no division that could round
    /// across the boundary decides a band).
    init(exactMaximum: ScaledDecimal, calories: CalorieFormula?) {
        self.exactMaximum = exactMaximum
        let divisor = ScaledDecimal.powersOfTen[exactMaximum.places + 1]
        maximumHeartRate = Double(exactMaximum.mantissa) / Double(ScaledDecimal.powersOfTen[exactMaximum.places])
        var floors = InlineArray<5, Double>(repeating: 0)
        for band in 0..<5 {
            floors[band] = Self.smallestDouble(atLeast: Int64(band + 5) * exactMaximum.mantissa, over: divisor)
        }
        bandFloors = floors
        self.calories = calories
        calorieFloor = calories?.floor ?? .infinity
    }

    /// For a maximum that does not fit ``ScaledDecimal`` (over 100,000, or more than seven
    /// decimal places): the floors are the double products, which may differ from the exact
    /// boundary in the last bit.
    init(approximateMaximum: Double, calories: CalorieFormula?) {
        exactMaximum = nil
        maximumHeartRate = approximateMaximum
        var floors = InlineArray<5, Double>(repeating: 0)
        for band in 0..<5 { floors[band] = Double(band + 5) * approximateMaximum / 10 }
        bandFloors = floors
        self.calories = calories
        calorieFloor = calories?.floor ?? .infinity
    }

    /// The smallest double >= numerator / denominator, both below 2^53 (so exact as doubles).
    static func smallestDouble(atLeast numerator: Int64, over denominator: Int64) -> Double {
        let quotient = Double(numerator) / Double(denominator)
        // quotient * denominator - numerator, computed exactly and rounded once: its sign is exact.
        let error = (-Double(numerator)).addingProduct(quotient, Double(denominator))
        return error < 0 ? quotient.nextUp : quotient
    }

    /// The intensity band (0 ... 5) of a heart rate: how many band floors it reaches (they
    /// increase), counted without branches.
    @inline(__always)
    func band(of value: Double) -> Int { Self.band(of: value, floors: bandFloors) }

    /// The intensity band of a heart rate against `floors`, ``bandFloors`` or a copy of them.
    @inline(__always)
    static func band(of value: Double, floors: InlineArray<5, Double>) -> Int {
        (value >= floors[0] ? 1 : 0) + (value >= floors[1] ? 1 : 0) + (value >= floors[2] ? 1 : 0)
            + (value >= floors[3] ? 1 : 0) + (value >= floors[4] ? 1 : 0)
    }
}

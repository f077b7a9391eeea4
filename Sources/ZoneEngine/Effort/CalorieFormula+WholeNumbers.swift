/// Keytel's sum in whole numbers: the same kilocalories as the `Decimal` arithmetic, without
/// its allocations (about sixty a finished workout, and a twentieth of a worker's time on a
/// gym's traffic, perf). A property test holds both to the same results.
extension CalorieFormula {
    /// The constants c0 ... c3 in ten-thousandths, as the formula writes them.
    static let maleTenThousandths: [Int64] = [-550_969, 6309, 1988, 2017]
    static let femaleTenThousandths: [Int64] = [-204_022, 4472, -1263, 740]
    /// 4.184 kJ per kcal times 60,000 ms per minute.
    static let millisecondKilojoulesPerKilocalorie: Int128 = 251_040

    /// Whole kilocalories as ``kilocalories(milliseconds:heartRateMilliseconds:)`` defines
    /// them; nil when the age, the weight or the heart-rate sum has no ``ScaledDecimal``, or
    /// the milliseconds are beyond any workout (the caller then uses `Decimal`).
    func wholeNumberKilocalories(milliseconds: Int64, heartRateMilliseconds: Double) -> Int64? {
        guard milliseconds > 0, milliseconds < 1_000_000_000_000, let age = ScaledDecimal(age),
            let weight = ScaledDecimal(weightKg), let valueTime = Self.scaled(heartRateMilliseconds)
        else { return nil }
        let c = sex == .male ? Self.maleTenThousandths : Self.femaleTenThousandths
        // c0 + c2 * weight + c3 * age, at 4 + `places` decimal places.
        let places = max(age.places, weight.places)
        let intercept =
            Int128(c[0]) * Int128(ScaledDecimal.powersOfTen[places])
            + Int128(c[2]) * Int128(weight.mantissa(at: places)) + Int128(c[3]) * Int128(age.mantissa(at: places))
        // Both terms at 4 + `scale` places.
        let scale = max(places, valueTime.places)
        let numerator =
            intercept * Int128(milliseconds) * Int128(ScaledDecimal.powersOfTen[scale - places])
            + Int128(c[1]) * Int128(valueTime.mantissa) * Int128(ScaledDecimal.powersOfTen[scale - valueTime.places])
        let denominator = Self.millisecondKilojoulesPerKilocalorie * Int128(ScaledDecimal.powersOfTen[4 + scale])
        // Halves away from zero; below zero burns nothing.
        guard numerator > 0 else { return 0 }
        let rounded = (2 * numerator + denominator) / (2 * denominator)
        return Int64(exactly: rounded)
    }

    /// A sum of heart rate times milliseconds: a whole number below 2^53 (where every such
    /// double is exact), else a ``ScaledDecimal``.
    static func scaled(_ value: Double) -> ScaledDecimal? {
        if value == value.rounded(), abs(value) < 9e15 { return ScaledDecimal(mantissa: Int64(value), places: 0) }
        return ScaledDecimal(value)
    }
}

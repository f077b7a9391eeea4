import Foundation
import Testing

@testable import ZoneEngine

/// Keytel's calories in whole numbers against the `Decimal` arithmetic they replace on the
/// common path: the same kilocalories wherever the whole-number path answers, and it answers
/// for the ages, weights and heart-rate sums of real workouts.
@Suite struct CalorieFormulaTests {
    @Test func wholeNumberConstantsAreTheWrittenOnes() {
        for (decimals, whole) in [
            (CalorieFormula.male, CalorieFormula.maleTenThousandths),
            (CalorieFormula.female, CalorieFormula.femaleTenThousandths),
        ] {
            #expect(decimals.map { NSDecimalNumber(decimal: $0 * 10_000).int64Value } == whole)
        }
    }

    @Test func wholeNumbersGiveTheDecimalResults() {
        var random = ScaledDecimalTests.Random(state: 0xCA10_2026_1126)
        var answered = 0
        var plain = 0
        for _ in 0..<20_000 {
            guard let age = ScaledDecimalTests.metric(&random, around: 45),
                let weight = ScaledDecimalTests.metric(&random, around: 75)
            else { continue }
            let formula = CalorieFormula(sex: random.below(2) == 0 ? .male : .female, age: age, weightKg: weight)
            let milliseconds = Int64(random.below(4)) == 0 ? Int64(random.below(10)) : Int64(random.below(20_000_000))
            let heartRate = random.below(5) == 0 ? Double(random.below(2_000)) / 10 : Double(60 + random.below(140))
            let heartRateMilliseconds = random.below(10) == 0 ? heartRate : heartRate * Double(milliseconds)
            let decimal = formula.decimalKilocalories(
                milliseconds: milliseconds, heartRateMilliseconds: heartRateMilliseconds)
            if let whole = formula.wholeNumberKilocalories(
                milliseconds: milliseconds, heartRateMilliseconds: heartRateMilliseconds)
            {
                answered += 1
                #expect(whole == decimal, "\(formula) \(milliseconds) ms, \(heartRateMilliseconds)")
            }
            let isPlain =
                Self.isPlain(age) && Self.isPlain(weight) && heartRateMilliseconds == heartRateMilliseconds.rounded()
            if isPlain && milliseconds > 0 { plain += 1 }
            #expect(
                formula.kilocalories(milliseconds: milliseconds, heartRateMilliseconds: heartRateMilliseconds)
                    == decimal)
        }
        #expect(answered >= plain)
        #expect(plain > 1_000)
    }

    /// A metric as people write it: above 0, below 1,000, at most three places.
    static func isPlain(_ value: Double) -> Bool {
        let thousandths = value * 1000
        return value > 0 && value < 1000 && thousandths.rounded() == thousandths
    }

    /// A sum exactly between two whole kilocalories goes away from zero, as `Decimal`'s plain
    /// rounding does. With age and weight 0 (female), the sum is (0.4472 * hr-ms - 20.4022 *
    /// ms) / 251,040: 4,472 ms and 157,104,022 hr-ms make 279.5 kcal.
    @Test func halvesRoundAwayFromZero() throws {
        let formula = CalorieFormula(sex: .female, age: 0, weightKg: 0)
        let whole = formula.wholeNumberKilocalories(milliseconds: 4472, heartRateMilliseconds: 157_104_022)
        #expect(whole == 280)
        #expect(formula.decimalKilocalories(milliseconds: 4472, heartRateMilliseconds: 157_104_022) == 280)
        #expect(formula.wholeNumberKilocalories(milliseconds: 4472, heartRateMilliseconds: 157_104_021) == 279)
    }
}

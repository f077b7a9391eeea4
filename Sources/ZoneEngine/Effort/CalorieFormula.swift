import Foundation

/// Keytel et al. (2005): energy expenditure per minute from heart rate, age, weight and sex,
/// `(c0 + c1 * hr + c2 * weight_kg + c3 * age) / 4.184` kcal, and 0 where that is below 0.
///
/// The per-sample path only decides whether a covered interval burns anything (the rate's
/// sign, in doubles) and adds its milliseconds and heart-rate milliseconds; the exact sum is
/// worked out once, when the workout finishes, in decimal arithmetic with the constants as
/// written: in whole numbers (``ScaledDecimal``) for the ages, weights and sums people have,
/// in Foundation's `Decimal` otherwise.
struct CalorieFormula: Sendable, Equatable {
    let sex: PersonProfile.Sex
    let age: Double
    let weightKg: Double
    /// c0 + c2 * weight + c3 * age, in doubles: the rate is above 0 where c1 * hr exceeds its negation.
    let intercept: Double
    let slope: Double

    /// The formula for `profile`, nil unless it has age, weight and sex.
    init?(_ profile: PersonProfile) {
        guard let age = profile.age, let weightKg = profile.weightKg, let sex = profile.sex else { return nil }
        self.init(sex: sex, age: age, weightKg: weightKg)
    }

    init(sex: PersonProfile.Sex, age: Double, weightKg: Double) {
        self.sex = sex
        self.age = age
        self.weightKg = weightKg
        let constants = sex == .male ? Self.maleDoubles : Self.femaleDoubles
        intercept = constants[0] + constants[2] * weightKg + constants[3] * age
        slope = constants[1]
    }

    /// The heart rate where the formula's rate crosses 0; above it the rate is positive. (Near
    /// it the rate is near 0, so which side a value falls on changes nothing that shows.)
    var floor: Double { -intercept / slope }

    /// Whole kilocalories, halves away from zero, for `milliseconds` of burning intervals whose
    /// heart rate times their length adds up to `heartRateMilliseconds`.
    func kilocalories(milliseconds: Int64, heartRateMilliseconds: Double) -> Int64 {
        guard milliseconds > 0 else { return 0 }
        if let whole = wholeNumberKilocalories(milliseconds: milliseconds, heartRateMilliseconds: heartRateMilliseconds)
        {
            return whole
        }
        return decimalKilocalories(milliseconds: milliseconds, heartRateMilliseconds: heartRateMilliseconds)
    }

    /// ``kilocalories(milliseconds:heartRateMilliseconds:)`` in Foundation's `Decimal`: some
    /// sixty allocations a workout, so only for the values ``ScaledDecimal`` does not hold.
    func decimalKilocalories(milliseconds: Int64, heartRateMilliseconds: Double) -> Int64 {
        guard milliseconds > 0,
            let age = SystemZones.exactDecimal(age), let weight = SystemZones.exactDecimal(weightKg),
            let valueTime = Self.decimal(heartRateMilliseconds)
        else { return 0 }
        let c = Self.constants(sex)
        let perMinuteTimesMs = (c[0] + c[2] * weight + c[3] * age) * Decimal(milliseconds) + c[1] * valueTime
        var total = perMinuteTimesMs / (Self.kilojoulesPerKilocalorie * Decimal(60_000))
        var rounded = Decimal()
        NSDecimalRound(&rounded, &total, 0, .plain)
        return max(0, NSDecimalNumber(decimal: rounded).int64Value)
    }

    /// A sum of heart rate times milliseconds as a decimal: exact while it is a whole number.
    static func decimal(_ value: Double) -> Decimal? {
        if value == value.rounded(), abs(value) < 9e15 { return Decimal(Int64(value)) }
        return SystemZones.exactDecimal(value)
    }

    static let kilojoulesPerKilocalorie = Decimal(string: "4.184", locale: SystemZones.posix) ?? 4
    static let male = ["-55.0969", "0.6309", "0.1988", "0.2017"].map(decimal(text:))
    static let female = ["-20.4022", "0.4472", "-0.1263", "0.074"].map(decimal(text:))

    static func constants(_ sex: PersonProfile.Sex) -> [Decimal] { sex == .male ? male : female }
    /// The constants as doubles, converted once (each conversion allocates).
    static let maleDoubles = male.map { NSDecimalNumber(decimal: $0).doubleValue }
    static let femaleDoubles = female.map { NSDecimalNumber(decimal: $0).doubleValue }

    private static func decimal(text: String) -> Decimal { Decimal(string: text, locale: SystemZones.posix) ?? 0 }
}

/// The system zones' decimal arithmetic (``SystemZones``) in whole numbers, for the values
/// people actually enter: a metric below 100,000 whose shortest text has at most six decimal
/// places is the integer `mantissa` over 10^`places`, and every boundary is then a ratio of
/// integers that fits in 64 bits, rounded halves away from zero. The same numbers as
/// Foundation's `Decimal`, without its allocations: a session start computed its zones in
/// about 20 µs that way, 6% of a worker's time on a gym's traffic (perf).
/// Returns `nil` for anything else, and ``SystemZones`` then takes the `Decimal` path; a
/// property test holds both to the same results.
struct ScaledDecimal: Equatable {
    var mantissa: Int64
    var places: Int

    static let powersOfTen: [Int64] = (0...18).map { exponent in (0..<exponent).reduce(1) { product, _ in product * 10 }
    }

    /// `value` as its shortest decimal text states it, when that has at most six places and
    /// the value is below 100,000 in size: at most eleven digits, so no other decimal of as
    /// many places reads back as the same double, and no product below leaves 64 bits.
    init?(_ value: Double) {
        guard value.isFinite, abs(value) < 100_000 else { return nil }
        for places in 0...6 {
            let scaled = (value * Double(Self.powersOfTen[places])).rounded()
            // Division by an exact power of ten is correctly rounded: the decimal reads back
            // as `value`, and with so few digits no other decimal of as many places does.
            if scaled / Double(Self.powersOfTen[places]) == value {
                mantissa = Int64(scaled)
                self.places = places
                return
            }
        }
        return nil
    }

    init(mantissa: Int64, places: Int) {
        self.mantissa = mantissa
        self.places = places
    }

    /// The same value with `places` decimal places (at least as many as it has).
    func mantissa(at places: Int) -> Int64 { mantissa * Self.powersOfTen[places - self.places] }

    /// `numerator / 10^places` rounded to a whole number, halves away from zero.
    static func rounded(_ numerator: Int64, places: Int) -> Double {
        let divisor = powersOfTen[places]
        let magnitude = (numerator.magnitude + UInt64(divisor / 2)) / UInt64(divisor)
        return numerator < 0 ? -Double(magnitude) : Double(magnitude)
    }

    /// The heart-rate fractions (0.60 ... 0.90) in hundredths.
    static let heartRateHundredths: [Int64] = [60, 70, 80, 90]
    /// The power fractions (0.55 ... 1.20) in hundredths.
    static let powerHundredths: [Int64] = [55, 75, 90, 105, 120]

    /// The maximum heart rate: `max_hr`, else 208 - 0.7 * age (nil when neither is usable
    /// or does not fit).
    static func maximumHeartRate(for profile: PersonProfile) -> ScaledDecimal?? {
        if let value = profile.maximumHeartRate {
            guard let maximum = ScaledDecimal(value) else { return .some(nil) }
            if maximum.mantissa > 0 { return maximum }
        }
        guard let value = profile.age else { return nil }
        guard let age = ScaledDecimal(value) else { return .some(nil) }
        guard age.mantissa > 0 else { return nil }
        // 208 - 7/10 * age, at one place more than the age has.
        let places = age.places + 1
        let maximum = ScaledDecimal(mantissa: 208 * powersOfTen[places] - 7 * age.mantissa, places: places)
        return maximum.mantissa > 0 ? maximum : nil
    }

    /// ``SystemZones/heartRateBoundaries(for:)`` in whole numbers; `nil` when a metric does not
    /// fit (the caller then uses the `Decimal` path) or when no metric is usable (which the
    /// `Decimal` path then finds too).
    static func heartRateBoundaries(for profile: PersonProfile?) -> [Double]? {
        guard let profile, let found = maximumHeartRate(for: profile), let maximum = found else { return nil }
        if let value = profile.restingHeartRate {
            guard let rest = ScaledDecimal(value) else { return nil }
            let places = max(rest.places, maximum.places)
            let restAt = rest.mantissa(at: places)
            let maximumAt = maximum.mantissa(at: places)
            if restAt > 0 && restAt < maximumAt {
                // rest + f * (max - rest) = (100 * rest + F * (max - rest)) / 10^(places + 2)
                return heartRateHundredths.map { rounded(100 * restAt + $0 * (maximumAt - restAt), places: places + 2) }
            }
        }
        return heartRateHundredths.map { rounded($0 * maximum.mantissa, places: maximum.places + 2) }
    }

    /// ``SystemZones/cyclingPower(for:)``'s boundaries in whole numbers; `nil` when the FTP is
    /// missing, not positive or does not fit (the `Decimal` path then decides).
    static func powerBoundaries(for profile: PersonProfile?) -> [Double]? {
        guard let value = profile?.functionalThresholdPower, let ftp = ScaledDecimal(value), ftp.mantissa > 0 else {
            return nil
        }
        return powerHundredths.map { rounded($0 * ftp.mantissa, places: ftp.places + 2) }
    }
}

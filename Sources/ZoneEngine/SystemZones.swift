import Foundation

/// The `system` zones of docs/reference/contract.md, computed in decimal arithmetic so that
/// 0.7 * 165 is exactly 115.5, with only the final boundaries rounded (halves away from zero).
public enum SystemZones {
    /// Heart-rate boundaries used when a person has no usable metrics.
    public static let defaultHeartRateBoundaries: [Double] = [91, 114, 136, 158]
    static let heartRateFractions: [Decimal] = ["0.60", "0.70", "0.80", "0.90"].map { Decimal(string: $0)! }
    static let powerFractions: [Decimal] = ["0.55", "0.75", "0.90", "1.05", "1.20"].map { Decimal(string: $0)! }
    /// Tanaka's slope, and the locale numbers are read in: made once (a session start made
    /// both each time, most of the start's cost in a gym run's profile).
    static let tanakaSlope = Decimal(string: "0.7")!
    static let posix = Locale(identifier: "en_US_POSIX")

    /// Heart-rate zones from the profile's metrics: max = `max_hr`, else Tanaka
    /// (208 - 0.7 * age); Karvonen with a resting rate below max, else a share of max.
    /// Falls back to the default boundaries when no metric is usable.
    public static func heartRate(for profile: PersonProfile?) -> ZoneConfiguration {
        if let boundaries = ScaledDecimal.heartRateBoundaries(for: profile) ?? heartRateBoundaries(for: profile),
            let configuration = try? ZoneConfiguration.validated(
                quantity: .heartRate, source: .system, boundaries: boundaries)
        {
            return configuration
        }
        // The default list is valid by construction; the fallback below is never taken.
        return
            (try? ZoneConfiguration.validated(
                quantity: .heartRate, source: .system, boundaries: defaultHeartRateBoundaries))!
    }

    /// Power zones from `ftp` > 0; `nil` without a usable ftp.
    public static func cyclingPower(for profile: PersonProfile?) -> ZoneConfiguration? {
        guard let boundaries = ScaledDecimal.powerBoundaries(for: profile) ?? powerBoundaries(for: profile) else {
            return nil
        }
        return try? ZoneConfiguration.validated(quantity: .cyclingPower, source: .system, boundaries: boundaries)
    }

    /// The person's maximum heart rate as the system zones use it: `max_hr`, else Tanaka
    /// (208 - 0.7 * age); nil when neither is usable. The board's "percent of max" divides by it.
    public static func maximumHeartRate(for profile: PersonProfile?) -> Double? {
        maximumHeartRateDecimal(for: profile).map { NSDecimalNumber(decimal: $0).doubleValue }
    }

    static func maximumHeartRateDecimal(for profile: PersonProfile?) -> Decimal? {
        guard let profile else { return nil }
        let maximum: Decimal
        if let maxHR = profile.maximumHeartRate.flatMap(exactDecimal), maxHR > 0 {
            maximum = maxHR
        } else if let age = profile.age.flatMap(exactDecimal), age > 0 {
            maximum = Decimal(208) - tanakaSlope * age
        } else {
            return nil
        }
        return maximum > 0 ? maximum : nil
    }

    /// The resting heart rate the system's heart-rate zones are Karvonen zones of (contract,
    /// section 1: given, and below the maximum), nil when they are not.
    static func reserveRestingHeartRate(for profile: PersonProfile?) -> Double? {
        guard let profile, let maximum = maximumHeartRateDecimal(for: profile),
            let resting = profile.restingHeartRate, let rest = exactDecimal(resting), rest > 0, rest < maximum
        else { return nil }
        return resting
    }

    static func heartRateBoundaries(for profile: PersonProfile?) -> [Double]? {
        guard let profile, let maximum = maximumHeartRateDecimal(for: profile) else { return nil }
        if let rest = profile.restingHeartRate.flatMap(exactDecimal), rest > 0, rest < maximum {
            return heartRateFractions.map { roundedHalfAwayFromZero(rest + $0 * (maximum - rest)) }
        }
        return heartRateFractions.map { roundedHalfAwayFromZero($0 * maximum) }
    }

    /// Power boundaries in `Decimal` (``ScaledDecimal`` answers first for ordinary FTPs).
    static func powerBoundaries(for profile: PersonProfile?) -> [Double]? {
        guard let ftp = profile?.functionalThresholdPower.flatMap(exactDecimal), ftp > 0 else { return nil }
        return powerFractions.map { roundedHalfAwayFromZero($0 * ftp) }
    }

    /// The decimal a person wrote: the shortest text that round-trips the double.
    static func exactDecimal(_ value: Double) -> Decimal? {
        guard value.isFinite else { return nil }
        return Decimal(string: String(describing: value), locale: posix)
    }

    static func roundedHalfAwayFromZero(_ value: Decimal) -> Double {
        var input = value
        var output = Decimal()
        // `.plain` rounds a half away from zero (115.5 -> 116, -115.5 -> -116).
        NSDecimalRound(&output, &input, 0, .plain)
        return NSDecimalNumber(decimal: output).doubleValue
    }
}

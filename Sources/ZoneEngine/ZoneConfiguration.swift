/// Where a session's zones for one quantity came from (docs/reference/contract.md).
public enum ZoneSource: String, Sendable, Equatable, CaseIterable {
    case system, user, app, normalized
}

/// Why a list of boundaries is not a zone configuration.
public enum ZoneConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    case badUnit(String)
    case wrongCount(Int)
    case notFinite
    case notPositive
    case notIncreasing

    public var description: String {
        switch self {
        case .badUnit(let unit): "unit '\(unit)' is not accepted for this quantity"
        case .wrongCount(let count): "\(count) boundaries given, 2 to 8 required"
        case .notFinite: "boundaries must be finite"
        case .notPositive: "boundaries must be greater than 0"
        case .notIncreasing: "boundaries must be strictly increasing"
        }
    }
}

/// A validated zone configuration: 3 to 9 contiguous zones of one quantity.
public struct ZoneConfiguration: Sendable, Equatable {
    public let quantity: Quantity
    public let source: ZoneSource
    /// Boundaries in the quantity's canonical unit.
    public let boundaries: ZoneBoundaries

    /// The number of zones (boundaries + 1).
    public var zoneCount: Int { boundaries.count + 1 }

    /// The unit the boundaries are reported in: always the quantity's canonical unit.
    public var unit: String { quantity.canonicalUnit }

    /// Validates boundaries given in `unit` (absent: the canonical unit), converting them
    /// to the canonical unit first: 2 to 8 finite numbers > 0, strictly increasing.
    public static func validated(
        quantity: Quantity, source: ZoneSource, boundaries: [Double], unit: String? = nil
    ) throws(ZoneConfigurationError) -> ZoneConfiguration {
        let unitName = unit ?? quantity.canonicalUnit
        guard let factor = quantity.conversionFactor(forUnit: unitName) else { throw .badUnit(unitName) }
        guard (ZoneBoundaries.minimumCount...ZoneBoundaries.maximumCount).contains(boundaries.count) else {
            throw .wrongCount(boundaries.count)
        }
        let converted = boundaries.map { $0 * factor }
        guard converted.allSatisfy(\.isFinite) else { throw .notFinite }
        guard converted.allSatisfy({ $0 > 0 }) else { throw .notPositive }
        guard zip(converted, converted.dropFirst()).allSatisfy({ $0 < $1 }) else { throw .notIncreasing }
        return ZoneConfiguration(quantity: quantity, source: source, boundaries: ZoneBoundaries(converted))
    }

    /// The 0-based zone of a value in the canonical unit.
    @inlinable
    public func zoneIndex(of value: Double) -> Int { boundaries.zoneIndex(of: value) }

    /// The lower bound of a 0-based zone, `nil` for the first zone.
    public func lowerBound(ofZone zone: Int) -> Double? { zone == 0 ? nil : boundaries[zone - 1] }

    /// The upper bound of a 0-based zone, `nil` for the last zone.
    public func upperBound(ofZone zone: Int) -> Double? { zone >= boundaries.count ? nil : boundaries[zone] }
}

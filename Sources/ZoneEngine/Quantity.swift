/// A measured quantity that has zones.
///
/// The raw value doubles as the index into per-quantity fixed storage, so the
/// hot path never hashes a quantity name.
public enum Quantity: Int, CaseIterable, Sendable, Hashable {
    case heartRate = 0
    case cyclingPower = 1

    /// The contract's name, as it appears on the wire (`heart_rate`, `cycling_power`).
    public var name: String {
        switch self {
        case .heartRate: "heart_rate"
        case .cyclingPower: "cycling_power"
        }
    }

    /// The unit zones and statistics are reported in.
    public var canonicalUnit: String {
        switch self {
        case .heartRate: "count/min"
        case .cyclingPower: "W"
        }
    }

    /// Parses a wire name; `nil` for an unknown quantity.
    public init?(name: String) {
        switch name {
        case "heart_rate": self = .heartRate
        case "cycling_power": self = .cyclingPower
        default: return nil
        }
    }

    /// The factor that converts a value in `unit` to the canonical unit, or
    /// `nil` when the unit is not accepted for this quantity (case-sensitive).
    public func conversionFactor(forUnit unit: String) -> Double? {
        switch (self, unit) {
        case (.heartRate, "count/min"), (.heartRate, "bpm"): 1
        case (.heartRate, "count/s"): 60
        case (.cyclingPower, "W"): 1
        case (.cyclingPower, "kW"): 1000
        default: nil
        }
    }

    /// Whether a value, already in the canonical unit, is a valid reading.
    /// Heart rate: 0 < v <= 300 count/min; power: 0 <= v <= 5000 W; always finite.
    @inlinable
    public func isValidReading(_ value: Double) -> Bool {
        switch self {
        case .heartRate: value > 0 && value <= 300
        case .cyclingPower: value >= 0 && value <= 5000
        }
    }
}

/// A fixed pair of values, one per ``Quantity``, without hashing or allocation.
public struct PerQuantity<Value> {
    public var heartRate: Value
    public var cyclingPower: Value

    public init(heartRate: Value, cyclingPower: Value) {
        self.heartRate = heartRate
        self.cyclingPower = cyclingPower
    }

    public init(repeating value: Value) {
        self.init(heartRate: value, cyclingPower: value)
    }

    @inlinable
    public subscript(quantity: Quantity) -> Value {
        get {
            switch quantity {
            case .heartRate: heartRate
            case .cyclingPower: cyclingPower
            }
        }
        _modify {
            switch quantity {
            case .heartRate: yield &heartRate
            case .cyclingPower: yield &cyclingPower
            }
        }
        set {
            switch quantity {
            case .heartRate: heartRate = newValue
            case .cyclingPower: cyclingPower = newValue
            }
        }
    }
}

extension PerQuantity: Sendable where Value: Sendable {}
extension PerQuantity: Equatable where Value: Equatable {}

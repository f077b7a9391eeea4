import Foundation

/// Compares Foundation JSON values as JSON: numbers by value, null and absent alike,
/// containers deeply. Used by the load generator's check and by the tests.
public enum JSONComparison {
    public static func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (unwrap(lhs), unwrap(rhs)) {
        case (nil, nil), (is NSNull, nil), (nil, is NSNull), (is NSNull, is NSNull): return true
        case (let l as String, let r as String): return l == r
        case (let l as [String: Any], let r as [String: Any]):
            return Set(l.keys) == Set(r.keys) && l.allSatisfy { equal($0.value, r[$0.key]) }
        case (let l as [Any], let r as [Any]):
            return l.count == r.count && zip(l, r).allSatisfy { equal($0, $1) }
        case (let l?, let r?):
            guard let left = number(l), let right = number(r) else { return false }
            return left == right
        default: return false
        }
    }

    /// Looks through Swift optionals, so `String?` values compare like their contents.
    private static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let child = mirror.children.first else { return nil }
            return unwrap(child.value)
        }
        return value
    }

    private static func number(_ value: Any) -> Double? {
        switch value {
        case let v as Int: Double(v)
        case let v as Int64: Double(v)
        case let v as Double: v
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }
}

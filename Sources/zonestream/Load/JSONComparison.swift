import Foundation

/// Compares JSON values as JSON: numbers by value, null and absent alike, containers deeply.
enum JSONComparison {
    static func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil), (is NSNull, nil), (nil, is NSNull), (is NSNull, is NSNull): return true
        case (let l as String, let r as String): return l == r
        case (let l as [String: Any], let r as [String: Any]):
            return Set(l.keys) == Set(r.keys) && l.allSatisfy { equal($0.value, r[$0.key]) }
        case (let l as [Any], let r as [Any]):
            return l.count == r.count && zip(l, r).allSatisfy { equal($0, $1) }
        case (let l as NSNumber, let r as NSNumber): return l.doubleValue == r.doubleValue
        default: return false
        }
    }
}

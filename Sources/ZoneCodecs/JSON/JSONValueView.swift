/// The JSON type of a value as the contract sees it.
package enum JSONValueKind: Equatable {
    case null, boolean, integer, real, string, object, array
}

/// Read access to one value of a parsed document. Two implementations exist: one over
/// ``StrictJSONParser``'s tape (production) and one over jansson's DOM (the reference),
/// so that one validator serves both and a differential test compares only parsing.
package protocol JSONValueView {
    var kind: JSONValueKind { get }
    /// The value of an integer that fits in Int64.
    var integerValue: Int64? { get }
    /// Whether an integer token was too large for Int64.
    var isOverflowingInteger: Bool { get }
    /// The numeric value of an integer or real; infinite for a real that overflows.
    var doubleValue: Double? { get }
    /// The decoded string (allocates for long strings; not on the per-sample path).
    var stringValue: String? { get }
    /// The number of UTF-8 bytes of a string value.
    var stringByteCount: Int { get }
    /// Whether a string value equals `text`, without allocating.
    func stringEquals(_ text: StaticString) -> Bool
    /// Whether a string value's UTF-8 bytes equal `bytes`.
    func stringEquals(bytes: UnsafeRawBufferPointer) -> Bool
    /// The last member named `key` of an object (duplicate keys: the last wins, as in jansson).
    func member(_ key: StaticString) -> Self?
    /// An object's members in order (allocates the keys).
    var members: [(key: String, value: Self)] { get }
    /// Calls `body` with each member's key bytes and value, in order, without allocating
    /// (except for keys with escapes).
    func forEachMember(_ body: (UnsafeRawBufferPointer, Self) -> Void)
    var elementCount: Int { get }
    /// Calls `body` with each array element in order until it returns false.
    func forEachElement(_ body: (Self) -> Bool)
}

extension JSONValueView {
    /// A member that is present and not null.
    func presentMember(_ key: StaticString) -> Self? {
        guard let value = member(key), value.kind != .null else { return nil }
        return value
    }

    var isNumber: Bool { kind == .integer || kind == .real }
}

/// Milliseconds credited to each of up to nine zones, stored inline (no heap).
public struct ZoneDurations: Sendable, Equatable {
    public static let capacity = 9
    @usableFromInline var storage = InlineArray<9, Int64>(repeating: 0)

    public init() {}

    @inlinable
    public subscript(zone: Int) -> Int64 {
        get { storage[zone] }
        set { storage[zone] = newValue }
    }

    /// The first `count` durations, for encoding.
    public func values(count: Int) -> [Int64] { (0..<count).map { storage[$0] } }

    /// The sum over all zones.
    public var total: Int64 { (0..<Self.capacity).reduce(0) { $0 + storage[$1] } }

    public static func == (lhs: ZoneDurations, rhs: ZoneDurations) -> Bool {
        (0..<capacity).allSatisfy { lhs.storage[$0] == rhs.storage[$0] }
    }
}

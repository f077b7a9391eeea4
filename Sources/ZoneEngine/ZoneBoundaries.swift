/// Up to eight zone boundaries, stored inline so a zone lookup touches no heap.
public struct ZoneBoundaries: Sendable, Equatable {
    /// The most boundaries a configuration may have (nine zones).
    public static let maximumCount = 8
    /// The fewest boundaries a configuration may have (three zones).
    public static let minimumCount = 2

    @usableFromInline var storage: InlineArray<8, Double>
    /// How many boundaries are set (at most eight, so a byte: it packs beside the
    /// configuration's other small fields).
    private let storedCount: UInt8
    public var count: Int { Int(storedCount) }

    /// Stores `values`; callers validate first (see ``ZoneConfiguration/validated(quantity:source:boundaries:unit:)``).
    init(_ values: [Double]) {
        var storage = InlineArray<8, Double>(repeating: .infinity)
        for (index, value) in values.prefix(Self.maximumCount).enumerated() { storage[index] = value }
        self.storage = storage
        self.storedCount = UInt8(min(values.count, Self.maximumCount))
    }

    public subscript(index: Int) -> Double { storage[index] }

    /// The boundaries as an array, for encoding and tests.
    public var values: [Double] { (0..<count).map { storage[$0] } }

    /// The 0-based zone of `value`: the number of boundaries at or below it.
    /// A value equal to a boundary belongs to the upper zone.
    ///
    /// Unused slots hold +infinity, so all eight comparisons run without a loop or a branch.
    @inlinable
    public func zoneIndex(of value: Double) -> Int {
        var zone = value >= storage[0] ? 1 : 0
        zone &+= value >= storage[1] ? 1 : 0
        zone &+= value >= storage[2] ? 1 : 0
        zone &+= value >= storage[3] ? 1 : 0
        zone &+= value >= storage[4] ? 1 : 0
        zone &+= value >= storage[5] ? 1 : 0
        zone &+= value >= storage[6] ? 1 : 0
        zone &+= value >= storage[7] ? 1 : 0
        return zone
    }

    public static func == (lhs: ZoneBoundaries, rhs: ZoneBoundaries) -> Bool {
        lhs.count == rhs.count && (0..<lhs.count).allSatisfy { lhs.storage[$0] == rhs.storage[$0] }
    }
}

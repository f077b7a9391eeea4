/// Why snapshot bytes could not be read back.
public struct SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// Appends little-endian fields to a byte buffer: the snapshot wire format's writer.
struct SnapshotWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func write(_ value: UInt8) { bytes.append(value) }
    mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func write(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: Int) { write(Int64(value)) }

    mutating func write(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    mutating func write(_ value: Double) { write(Int64(bitPattern: value.bitPattern)) }

    mutating func write(_ value: String) {
        let utf8 = value.utf8
        write(Int64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func write(_ value: String?) {
        write(value != nil)
        if let value { write(value) }
    }

    mutating func write(_ durations: ZoneDurations) {
        for zone in 0..<ZoneDurations.capacity { write(durations[zone]) }
    }
}

/// Reads what ``SnapshotWriter`` wrote, checking every length against the bytes left.
struct SnapshotReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    mutating func readByte() throws(SnapshotError) -> UInt8 {
        guard position < bytes.count else { throw SnapshotError("truncated at byte \(position)") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readBool() throws(SnapshotError) -> Bool {
        switch try readByte() {
        case 0: return false
        case 1: return true
        case let other: throw SnapshotError("byte \(other) is not a boolean at \(position - 1)")
        }
    }

    mutating func readInt64() throws(SnapshotError) -> Int64 { try readLittleEndian(Int64.self) }

    mutating func readInt() throws(SnapshotError) -> Int { Int(try readInt64()) }

    mutating func readUInt32() throws(SnapshotError) -> UInt32 { try readLittleEndian(UInt32.self) }

    /// A fixed-width integer as ``SnapshotWriter`` wrote it.
    private mutating func readLittleEndian<Value: FixedWidthInteger>(_: Value.Type) throws(SnapshotError) -> Value {
        let size = MemoryLayout<Value>.size
        guard bytes.count - position >= size else { throw SnapshotError("truncated at byte \(position)") }
        var value: Value = 0
        withUnsafeMutableBytes(of: &value) {
            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[position..<position + size]))
        }
        position += size
        return Value(littleEndian: value)
    }

    mutating func readDouble() throws(SnapshotError) -> Double {
        Double(bitPattern: UInt64(bitPattern: try readInt64()))
    }

    /// A count that must fit in `limit` (guards against hostile or corrupt lengths).
    mutating func readCount(limit: Int) throws(SnapshotError) -> Int {
        let count = try readInt64()
        guard count >= 0, count <= Int64(limit) else { throw SnapshotError("count \(count) over \(limit)") }
        return Int(count)
    }

    mutating func readString() throws(SnapshotError) -> String {
        let count = try readCount(limit: bytes.count)
        guard count <= bytes.count - position else {
            throw SnapshotError("string of \(count) bytes truncated at \(position)")
        }
        defer { position += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<position + count]), as: UTF8.self)
    }

    mutating func readOptionalString() throws(SnapshotError) -> String? {
        try readBool() ? try readString() : nil
    }

    /// The largest time, duration or count a snapshot may hold: the contract's largest `ts`
    /// (2^53 ms). Every such field is checked against it, so a hand-written or corrupt record
    /// on a changelog cannot make later arithmetic overflow.
    static let maximumMagnitude: Int64 = 1 << 53

    /// A time, a duration or a count: 0 ... 2^53, or exactly one of `sentinels` (the open end
    /// `.max`, the "none yet" `.min`).
    mutating func readBounded(allowing sentinels: [Int64] = []) throws(SnapshotError) -> Int64 {
        let value = try readInt64()
        guard (0...Self.maximumMagnitude).contains(value) || sentinels.contains(value) else {
            throw SnapshotError("\(value) at byte \(position - 8) is outside 0...2^53")
        }
        return value
    }

    /// A count kept as `Int`, within the same bounds.
    mutating func readBoundedInt() throws(SnapshotError) -> Int { Int(try readBounded()) }

    /// A finite number.
    mutating func readFinite() throws(SnapshotError) -> Double {
        let value = try readDouble()
        guard value.isFinite else { throw SnapshotError("a value at byte \(position - 8) is not finite") }
        return value
    }

    mutating func readDurations() throws(SnapshotError) -> ZoneDurations {
        var durations = ZoneDurations()
        for zone in 0..<ZoneDurations.capacity { durations[zone] = try readBounded() }
        return durations
    }
}

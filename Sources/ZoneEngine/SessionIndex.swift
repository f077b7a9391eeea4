/// The slot of each live session in a ``SessionStore``, found from the session id's bytes.
///
/// The store looks a session up once per record, and a `[String: Int]` spent most of the
/// store's per-sample time there: Swift's String hashing seeds and finalises SipHash for every
/// lookup (about 60 of the store's 110 ns per sample, measured with perf). This table hashes
/// the id's UTF-8 bytes eight at a time with a multiply-and-fold mix keyed by a random seed per
/// table (so ids crafted to collide in one process do not collide in another), and probes
/// linearly; an entry stores the full 64-bit hash, so the id itself is compared only on a
/// full hash match. Removal shifts later entries back, so there are no tombstones. Ids up to
/// 15 bytes are stored inline (Swift's small strings), so an entry costs no allocation.
struct SessionIndex: Sendable {
    /// Per bucket: the id's hash with the lowest bit set (0 marks an empty bucket).
    private var hashes: [UInt64]
    /// Per bucket: the session's slot in the store's `live` array.
    private var slots: [Int32]
    /// Per bucket: the session id.
    private var ids: [String]
    private var mask: Int
    private(set) var count = 0
    private let seed: UInt64

    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        hashes = [UInt64](repeating: 0, count: size)
        slots = [Int32](repeating: 0, count: size)
        ids = [String](repeating: "", count: size)
        mask = size - 1
        seed = UInt64.random(in: 1...UInt64.max)
    }

    /// The slot of the session `id`.
    @inline(__always)
    func slot(of id: String) -> Int? {
        let hash = hash(id)
        var bucket = Int(truncatingIfNeeded: hash >> 7) & mask
        while true {
            let stored = hashes[bucket]
            if stored == 0 { return nil }
            if stored == hash && ids[bucket] == id { return Int(slots[bucket]) }
            bucket = (bucket + 1) & mask
        }
    }

    /// Records that `id` is at `slot` (a new id, or a new slot for an id already in).
    mutating func set(_ id: String, slot: Int) {
        if (count + 1) * 2 > hashes.count { grow() }
        let hash = hash(id)
        var bucket = Int(truncatingIfNeeded: hash >> 7) & mask
        while hashes[bucket] != 0 {
            if hashes[bucket] == hash && ids[bucket] == id {
                slots[bucket] = Int32(truncatingIfNeeded: slot)
                return
            }
            bucket = (bucket + 1) & mask
        }
        hashes[bucket] = hash
        slots[bucket] = Int32(truncatingIfNeeded: slot)
        ids[bucket] = id
        count += 1
    }

    /// Forgets `id`; call before its slot is reused.
    mutating func remove(_ id: String) {
        let hash = hash(id)
        var bucket = Int(truncatingIfNeeded: hash >> 7) & mask
        while true {
            let stored = hashes[bucket]
            if stored == 0 { return }
            if stored == hash && ids[bucket] == id { break }
            bucket = (bucket + 1) & mask
        }
        // Shift back each later entry of the run whose home bucket is not between the hole
        // and itself, so every entry stays reachable from its home without tombstones.
        var hole = bucket
        var next = bucket
        while true {
            next = (next + 1) & mask
            let stored = hashes[next]
            if stored == 0 { break }
            let home = Int(truncatingIfNeeded: stored >> 7) & mask
            let staysPut = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if staysPut { continue }
            hashes[hole] = stored
            slots[hole] = slots[next]
            ids[hole] = ids[next]
            hole = next
        }
        hashes[hole] = 0
        ids[hole] = ""
        count -= 1
    }

    private mutating func grow() {
        let oldHashes = hashes
        let oldSlots = slots
        let oldIDs = ids
        let size = hashes.count * 2
        hashes = [UInt64](repeating: 0, count: size)
        slots = [Int32](repeating: 0, count: size)
        ids = [String](repeating: "", count: size)
        mask = size - 1
        for (index, stored) in oldHashes.enumerated() where stored != 0 {
            var bucket = Int(truncatingIfNeeded: stored >> 7) & mask
            while hashes[bucket] != 0 { bucket = (bucket + 1) & mask }
            hashes[bucket] = stored
            slots[bucket] = oldSlots[index]
            ids[bucket] = oldIDs[index]
        }
    }

    /// The seeded hash of `id`'s UTF-8 bytes, lowest bit set.
    @inline(__always)
    func hash(_ id: String) -> UInt64 {
        // Read in place: `withUTF8` is mutating, and the copy it needs retained the id on
        // every lookup. Only a string without contiguous UTF-8 (bridged) takes the copy.
        if let hash = id.utf8.withContiguousStorageIfAvailable({ hash(bytes: $0) }) { return hash }
        var contiguous = id
        return contiguous.withUTF8 { hash(bytes: $0) }
    }

    @inline(__always)
    private func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var state = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var offset = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while offset + 8 <= raw.count {
            state = Self.mix(state ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < raw.count {
            var tail: UInt64 = 0
            for index in offset..<raw.count { tail |= UInt64(raw[index]) << (8 * UInt64(index - offset)) }
            state = Self.mix(state ^ tail ^ 0xFF)
        }
        return Self.mix(state) | 1
    }

    /// One 128-bit multiply folded to 64 bits (the core of wyhash-style mixes).
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0xA076_1D64_78BD_642F)
        return product.high ^ product.low
    }
}

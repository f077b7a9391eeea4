import Testing

@testable import ZoneEngine

/// The store's session index behaves as a `[String: Int]` would, through growth and removals
/// (which shift entries back), for ids of every length the hash reads differently.
@Suite struct SessionIndexTests {
    /// A small deterministic generator, so a failure replays.
    struct Steps: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Ids of each shape the hash reads differently.
    static func id(_ number: Int) -> String {
        switch number % 5 {
        case 0: "s\(number)"  // under 8 bytes
        case 1: "gym-\(1000 + number % 9000)"  // 8 bytes
        case 2: "member-\(number)-x"  // 9 to 15 bytes
        case 3: "a-much-longer-session-id-\(number)"  // heap strings
        default: "séance-\(number)-ü"  // non-ASCII
        }
    }

    @Test(arguments: [1, 2, 3])
    func behavesAsADictionary(seed: UInt64) {
        var random = Steps(state: seed)
        var index = SessionIndex(capacity: 4)
        var model: [String: Int] = [:]
        let ids = (0..<3000).map(Self.id)
        for step in 0..<40_000 {
            let id = ids[Int(random.next() % UInt64(ids.count))]
            switch random.next() % 3 {
            case 0, 1:
                index.set(id, slot: step)
                model[id] = step
            default:
                index.remove(id)
                model[id] = nil
            }
            if step % 997 == 0 {
                #expect(index.count == model.count)
                for probe in ids.prefix(500) {
                    #expect(index.slot(of: probe) == model[probe], "\(probe) at step \(step)")
                }
            }
        }
        #expect(index.count == model.count)
        for id in ids { #expect(index.slot(of: id) == model[id]) }
        for id in ids { index.remove(id) }
        #expect(index.count == 0)
        #expect(ids.allSatisfy { index.slot(of: $0) == nil })
    }

    /// Ids that differ only past the eighth byte, or only in length, hash apart.
    @Test func similarIDsAreToldApart() {
        var index = SessionIndex()
        let ids = [
            "", "a", "a\0", "aaaaaaaa", "aaaaaaaab", "aaaaaaaac", "aaaaaaaa\0", String(repeating: "z", count: 64),
        ]
        for (slot, id) in ids.enumerated() { index.set(id, slot: slot) }
        for (slot, id) in ids.enumerated() { #expect(index.slot(of: id) == slot) }
        #expect(Set(ids.map(index.hash)).count == ids.count)
    }
}

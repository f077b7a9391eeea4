import Testing
import ZoneCodecs
import ZoneEngine
import ZoneSimulation

/// The direct zone-change writer produces exactly jansson's bytes.
@Suite struct ZoneChangeWriterTests {
    @Test func matchesJanssonByteForByte() throws {
        var random = SplitMix64(seed: 99)
        var writer = ZoneChangeWriter()
        let names = ["s", "morning-run", "a\"b\\c/d", "tab\tnew\nline\u{01}\u{1F}", "é😀", "x/y"]
        let boundarySets: [[Double]] = [[91, 114, 136, 158], [100.5, 120.25, 140.125], [0.1, 0.2], [1e-7, 3e20], [132, 180, 216, 252, 288, 300, 310, 320]]
        var compared = 0
        for round in 0..<500 {
            let boundaries = boundarySets[round % boundarySets.count]
            let quantity: Quantity = round % 2 == 0 ? .heartRate : .cyclingPower
            let configuration = try ZoneConfiguration.validated(quantity: quantity, source: round % 3 == 0 ? .app : .system, boundaries: boundaries)
            var durations = ZoneDurations()
            for zone in 0..<configuration.zoneCount { durations[zone] = Int64(random.next() % 10_000_000) }
            let change = ZoneChange(
                quantity: quantity, timestamp: Int64(random.next() % (1 << 53)),
                previousZone: round % 4 == 0 ? nil : Int(random.next() % UInt64(configuration.zoneCount)),
                currentZone: Int(random.next() % UInt64(configuration.zoneCount)), durations: durations)
            let person: String? = round % 5 == 0 ? nil : names[(round + 1) % names.count]
            let reference = OutputEncoder.zoneChange(change, session: names[round % names.count], person: person, configuration: configuration)
            let fast = writer.write(change, session: names[round % names.count], person: person, configuration: configuration)
            #expect(fast == reference, "\(String(decoding: fast, as: UTF8.self))\n\(String(decoding: reference, as: UTF8.self))")
            compared += 1
        }
        #expect(compared == 500)
    }
}

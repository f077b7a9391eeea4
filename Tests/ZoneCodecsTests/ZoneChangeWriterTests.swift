import Foundation
import Testing
import ZoneEngine
import ZoneSimulation

@testable import ZoneCodecs

/// The direct zone-change writer produces exactly the bytes of the jansson-built encoder, and
/// both write numbers as the shortest text that reads back as the same double.
@Suite struct ZoneChangeWriterTests {
    @Test func matchesJanssonByteForByte() throws {
        var random = SplitMix64(seed: 99)
        var writer = ZoneChangeWriter()
        let names = ["s", "morning-run", "a\"b\\c/d", "tab\tnew\nline\u{01}\u{1F}", "é😀", "x/y"]
        let boundarySets: [[Double]] = [
            [91, 114, 136, 158], [100.5, 120.25, 140.125], [0.1, 0.2], [1e-7, 3e20],
            [132, 180, 216, 252, 288, 300, 310, 320],
        ]
        var compared = 0
        for round in 0..<500 {
            let boundaries = boundarySets[round % boundarySets.count]
            let quantity: Quantity = round % 2 == 0 ? .heartRate : .cyclingPower
            let configuration = try ZoneConfiguration.validated(
                quantity: quantity, source: round % 3 == 0 ? .app : .system, boundaries: boundaries)
            var durations = ZoneDurations()
            for zone in 0..<configuration.zoneCount { durations[zone] = Int64(random.next() % 10_000_000) }
            let change = ZoneChange(
                quantity: quantity, timestamp: Int64(random.next() % (1 << 53)),
                previousZone: round % 4 == 0 ? nil : Int(random.next() % UInt64(configuration.zoneCount)),
                currentZone: Int(random.next() % UInt64(configuration.zoneCount)), durations: durations)
            let person: String? = round % 5 == 0 ? nil : names[(round + 1) % names.count]
            let reference = OutputEncoder.zoneChange(
                change, session: names[round % names.count], person: person, configuration: configuration)
            let fast = writer.write(
                change, session: names[round % names.count], person: person, configuration: configuration)
            #expect(
                fast == reference,
                "\(String(decoding: fast, as: UTF8.self))\n\(String(decoding: reference, as: UTF8.self))")
            compared += 1
        }
        #expect(compared == 500)
    }

    /// Integers are written as Swift spells them at every digit count, either side of each
    /// power of ten, at both ends of `Int64`, and in tenths and hundredths.
    @Test func integersAreWrittenAsSwiftSpellsThem() {
        var values: [Int64] = [0, 1, 9, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 10
        while true {
            values += [power - 1, power, power + 1, -power, -(power - 1)]
            guard power <= Int64.max / 10 else { break }
            power *= 10
        }
        var random = SplitMix64(seed: 7)
        for _ in 0..<1000 { values.append(Int64(bitPattern: random.next()) >> (random.next() % 64)) }
        var writer = JSONTextWriter(capacity: 16)
        for value in values {
            writer.removeAll()
            writer.appendInteger(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
        writer.removeAll()
        writer.appendTenths(105)
        writer.append(",")
        writer.appendHundredths(-92)
        writer.append(",")
        writer.appendDigits(UInt64.max)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "10.5,-0.92,\(UInt64.max)")
    }

    /// The writer keeps the text of the configurations it has seen in a table (4,096 slots):
    /// more configurations than its slots, seen again after others replaced them, and the same
    /// boundaries for another source or quantity (the same slot) still come out as jansson
    /// writes them.
    @Test func configurationsSeenAgainAfterManyOthersAreWrittenRight() throws {
        var random = SplitMix64(seed: 2026)
        var writer = ZoneChangeWriter()
        var configurations: [ZoneConfiguration] = []
        for index in 0..<5000 {
            let boundaries = [50 + Double(index) / 64, 150 + Double(random.next() % 1000) / 10]
            let sources: [ZoneSource] = index < 200 ? [.system, .user, .app] : [[.system, .user, .app][index % 3]]
            for source in sources {
                configurations.append(
                    try ZoneConfiguration.validated(
                        quantity: index % 2 == 0 ? .heartRate : .cyclingPower, source: source, boundaries: boundaries))
            }
        }
        for configuration in configurations + configurations.reversed() + configurations.shuffled(using: &random) {
            var durations = ZoneDurations()
            durations[1] = 5_000
            let change = ZoneChange(
                quantity: configuration.quantity, timestamp: 7, previousZone: 0, currentZone: 2, durations: durations)
            let fast = writer.write(change, session: "s", person: "p", configuration: configuration)
            #expect(fast == OutputEncoder.zoneChange(change, session: "s", person: "p", configuration: configuration))
        }
    }

    /// A gym's members' own zones (whole-number boundaries from each one's maximum heart rate
    /// and FTP) spread over the table's slots: with the first hash they shared a handful, and
    /// the writer wrote their text again for about half of a gym's zone changes.
    @Test func membersZonesSpreadOverTheSlots() throws {
        var configurations: [ZoneConfiguration] = []
        for maximum in 150...210 {
            let boundaries = [0.6, 0.7, 0.8, 0.9].map { (Double(maximum) * $0).rounded() }
            configurations.append(
                try ZoneConfiguration.validated(quantity: .heartRate, source: .system, boundaries: boundaries))
        }
        for ftp in 150...350 {
            let boundaries = [0.55, 0.75, 0.9, 1.05, 1.2].map { (Double(ftp) * $0).rounded() }
            configurations.append(
                try ZoneConfiguration.validated(quantity: .cyclingPower, source: .system, boundaries: boundaries))
        }
        let distinct = Set(configurations.map(\.boundaries.values))
        let slots = Set(configurations.map(ConfigurationTextCache.slot(of:)))
        // Random slots for 262 keys in 4,096 would collide about 8 times.
        #expect(slots.count >= distinct.count - 20, "\(distinct.count) configurations in \(slots.count) slots")
    }

    /// jansson alone wrote `81.900000000000006`; people expect `81.9`.
    @Test func realsAreTheShortestTextThatReadsBack() throws {
        var random = SplitMix64(seed: 7)
        var writer = ZoneChangeWriter()
        var sets: [[Double]] = [
            [81.9, 146.1, 200.3], [0.1, 0.2, 0.30000000000000004], [1e-7, 2.5e-5, 3e20],
            [99.5, 1e22, 1.7976931348623157e308],
        ]
        for _ in 0..<300 {
            // Random finite positive doubles of every magnitude, and decimals with one or two places.
            var values = (0..<3).map { _ in Double(bitPattern: random.next() % 0x7FEF_FFFF_FFFF_FFFF + 1) }
            values += (0..<3).map { _ in Double(random.next() % 300_000) / [10.0, 100.0][Int(random.next() % 2)] + 0.01
            }
            sets.append(Array(Set(values)).sorted())
        }
        for boundaries in sets {
            let configuration = try ZoneConfiguration.validated(
                quantity: .cyclingPower, source: .app, boundaries: boundaries)
            var durations = ZoneDurations()
            durations[0] = 1
            let change = ZoneChange(
                quantity: .cyclingPower, timestamp: 1, previousZone: nil, currentZone: 0, durations: durations)
            let text = String(
                decoding: writer.write(change, session: "s", person: nil, configuration: configuration), as: UTF8.self)
            let jansson = OutputEncoder.zoneChange(change, session: "s", person: nil, configuration: configuration)
            #expect(Array(text.utf8) == jansson)
            let list = try #require(
                text.range(of: #""boundaries":["#).map { text[$0.upperBound...].prefix { $0 != "]" } })
            let written = list.split(separator: ",").map(String.init)
            #expect(written.count == boundaries.count)
            for (spelled, value) in zip(written, boundaries) {
                #expect(Double(spelled) == value, "\(spelled) does not read back as \(value)")
                let shortest = value.description.replacingOccurrences(of: "e+", with: "e")
                #expect(spelled.count <= shortest.count + 2, "\(spelled) is longer than \(shortest)")
            }
        }
        let first = String(
            decoding: writer.write(
                ZoneChange(
                    quantity: .heartRate, timestamp: 1, previousZone: nil, currentZone: 0, durations: ZoneDurations()),
                session: "s", person: nil,
                configuration: try ZoneConfiguration.validated(
                    quantity: .heartRate, source: .app, boundaries: [81.9, 146.1])),
            as: UTF8.self)
        #expect(first.contains(#""boundaries":[81.9,146.1]"#) && first.contains(#""max":81.9}"#), "\(first)")
    }
}

import Foundation
import Testing
import ZoneHarness
import ZoneSimulation
import ZoneTestSupport

/// Records built to stop a processor, through a two-instance group on the embedded broker:
/// none may. Every record ends applied or dead-lettered, other sessions keep flowing, no
/// instance exits, and the largest finished workout the contract's limits allow is measured.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct PoisonPillTests {
    static let start = 1_717_300_000_000

    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A session with 1000 `activity_start`s: the first 100 apply, the rest are dead-lettered.
    static func relay(_ id: String) -> [(String, [UInt8])] {
        var events = [json(#"{"type":"session_start","session":"\#(id)","ts":\#(start)}"#)]
        for leg in 0..<1000 {
            events.append(
                json(#"{"type":"activity_start","session":"\#(id)","ts":\#(start + leg),"activity":"leg-\#(leg)"}"#))
        }
        events.append(
            json(#"{"type":"sample","session":"\#(id)","ts":\#(start + 1000),"quantity":"heart_rate","value":150}"#))
        events.append(json(#"{"type":"session_end","session":"\#(id)","ts":\#(start + 2000)}"#))
        return events.map { (id, $0) }
    }

    /// As large as the limits allow: a 128-byte person, a 64-byte activity, 9 zones for both
    /// quantities with long boundaries, 100 activities of 64-byte names with time in every
    /// zone, and a 1000-value series.
    static func extreme(_ id: String) -> [(String, [UInt8])] {
        let person = String(repeating: "p", count: 120) + id.suffix(8).padding(toLength: 8, withPad: "x", startingAt: 0)
        let heartRate = (1...8).map { "\(90 + $0 * 12).123456789012" }.joined(separator: ",")
        let power = (1...8).map { "\(80 + $0 * 45).987654321098" }.joined(separator: ",")
        var events = [
            json(
                #"{"type":"session_start","session":"\#(id)","ts":\#(start),"person":"\#(person)","activity":"\#(String(repeating: "a", count: 64))","zones":{"heart_rate":{"boundaries":[\#(heartRate)]},"cycling_power":{"boundaries":[\#(power)]}}}"#
            )
        ]
        for leg in 0..<100 {
            let ts = start + leg * 20_000
            let name = "leg-\(leg)-".padding(toLength: 64, withPad: "z", startingAt: 0)
            events.append(json(#"{"type":"activity_start","session":"\#(id)","ts":\#(ts),"activity":"\#(name)"}"#))
            for zone in 0..<9 {
                let at = ts + 1 + zone * 2000
                events.append(
                    json(
                        #"{"type":"sample","session":"\#(id)","ts":\#(at),"quantity":"heart_rate","value":\#(95 + zone * 12)}"#
                    ))
                events.append(
                    json(
                        #"{"type":"sample","session":"\#(id)","ts":\#(at),"quantity":"cycling_power","value":\#(90 + zone * 45)}"#
                    ))
            }
        }
        let seriesStart = start + 100 * 20_000
        let values = (0..<1000).map { "\(95 + ($0 % 9) * 12).5" }.joined(separator: ",")
        events.append(
            json(
                #"{"type":"sample_series","session":"\#(id)","ts":\#(seriesStart),"quantity":"heart_rate","interval_ms":1000,"values":[\#(values)]}"#
            ))
        events.append(json(#"{"type":"session_end","session":"\#(id)","ts":\#(seriesStart + 1_000_000)}"#))
        return events.map { (id, $0) }
    }

    @Test func poisonPillsStopNoInstanceAndEveryRecordIsAccountedFor() throws {
        let broker = try BrokerProcess(partitions: 4)
        defer { broker.stop() }
        let bootstrap = broker.bootstrapServers
        let instances = try (0..<2).map { _ in
            try ZoneStreamProcess.testProcessor(bootstrap: bootstrap, group: "poison")
        }
        for instance in instances { #expect(instance.waitForOutput("partitions assigned", seconds: 30)) }
        let collector = try OutputCollector(bootstrap: bootstrap, topics: ["workouts-finished", "zonestream-dlq"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: bootstrap)

        for (key, value) in Self.relay("relay-1000") { try input.send("workout-events", key: key, value: value) }
        let sample = Self.json(
            #"{"type":"sample","session":"huge-key","ts":\#(Self.start),"quantity":"heart_rate","value":120}"#)
        let key450 = String(repeating: "k", count: 450_000)
        let keyMegabyte = String(repeating: "m", count: 1_048_576 - sample.count)
        try input.send("workout-events", key: key450, value: sample)
        try input.send("workout-events", key: keyMegabyte, value: sample)
        let extremes = ["extreme-a", "extreme-b", "extreme-c"]
        for id in extremes {
            for (key, value) in Self.extreme(id) { try input.send("workout-events", key: key, value: value) }
        }
        let after = "after-poison"
        for event in [
            #"{"type":"sample","session":"\#(after)","ts":\#(Self.start),"quantity":"heart_rate","value":130}"#,
            #"{"type":"session_end","session":"\#(after)","ts":\#(Self.start + 5000)}"#,
        ] { try input.send("workout-events", key: after, value: Self.json(event)) }
        try input.flush()

        let finishedIDs = Set(["relay-1000", after] + extremes)
        let arrived = collector.wait(seconds: 90) { collector in
            Set(collector.records("workouts-finished").compactMap(\.key)).isSuperset(of: finishedIDs)
                && collector.records("zonestream-dlq").count >= 902
        }
        #expect(
            arrived,
            "finished: \(collector.records("workouts-finished").count), dead letters: \(collector.records("zonestream-dlq").count)"
        )
        for (index, instance) in instances.enumerated() {
            #expect(instance.isRunning, "instance \(index) is running: \(instance.output.suffix(800))")
        }

        // Dead letters: 900 refused activity starts, and the two huge keys, deliverable.
        var reasons: [String: Int] = [:]
        for record in collector.records("zonestream-dlq") {
            let object = OutputRefusalTests.object(record.value)
            reasons[object["reason"] as? String ?? "?", default: 0] += 1
            guard object["reason"] as? String == "key_mismatch" else { continue }
            #expect(record.key?.utf8.count == 1024, "the dead letter's key is cut to 1024 bytes")
            #expect(object["truncated"] as? Bool == true)
            #expect(Data(base64Encoded: object["key_base64"] as? String ?? "")?.count == 262_144)
            #expect(record.value.utf8.count < 1_000_000)
        }
        #expect(reasons == ["invalid_transition": 900, "key_mismatch": 2], "\(reasons)")

        var largest = 0
        for record in collector.records("workouts-finished") {
            let object = OutputRefusalTests.object(record.value)
            if record.key == "relay-1000" { #expect((object["activities"] as? [Any])?.count == 100) }
            if extremes.contains(record.key ?? "") {
                #expect((object["activities"] as? [Any])?.count == 100)
                largest = max(largest, record.value.utf8.count)
            }
        }
        #expect(largest > 0 && largest < 256 * 1024, "largest finished workout: \(largest) bytes")
        print("largest finished workout the limits allow: \(largest) bytes (\(largest / 1024) KB)")
        for instance in instances {
            #expect(instance.signal(SIGTERM, waitSeconds: 20), "stops on SIGTERM: \(instance.output.suffix(800))")
            #expect(instance.exitStatus == 0)
        }
    }
}

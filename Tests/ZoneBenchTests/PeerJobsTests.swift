import Foundation
import Synchronization
import Testing
import ZoneProcessor
import ZoneTestSupport

/// Each benchmark peer (benchmarks/peers/NAME) does the same job as ZoneStream's heart-rate
/// half, or its figures mean nothing: on the same small input through a real broker, its zone
/// changes must equal ZoneStream's, event for event (ids, zones, cumulative durations). The
/// input has no profiles (so the contract's default system zones), app zones on some
/// sessions, gaps over `max_gap_ms`, repeated and late samples, and ended sessions. Each peer
/// installs its pinned environment on first use (.venv/peers/NAME).
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct PeerJobsTests {
    /// The peers, on the embedded broker where the benchmark runs them; Faust, which creates
    /// its table's changelog topic, on noida-db.
    static let cases: [(peer: String, broker: BrokerKind)] =
        BrokerKind.mockOnly.flatMap { kind in [("quixstreams", kind), ("bytewax", kind), ("pathway", kind)] }
        + BrokerKind.noidaOnly.map { ("faust", $0) }

    /// Eight sessions of heart rate over the zones, three with app zones, in input order.
    static func input() -> [(key: String, value: String)] {
        var records: [(String, String)] = []
        let start: Int64 = 1_717_200_000_000
        for index in 0..<8 {
            let session = "peer-check-\(index)"
            let zones = index % 3 == 0 ? #","zones":{"heart_rate":{"boundaries":[100,120,140,160,180]}}"# : ""
            records.append(
                (session, #"{"type":"session_start","session":"\#(session)","ts":\#(start)\#(zones)}"#))
            var ts = start
            for sample in 0..<60 {
                // A wave through every zone; a 15 s gap now and then (over max_gap_ms).
                ts += sample % 17 == 16 ? 15_000 : 1_000 + Int64(index) * 100
                let value = 100 + 60 * sin(Double(sample + index * 5) / 6)
                records.append((session, Self.sample(session, ts: ts, value: value.rounded())))
                // The same time again, and one from before the last.
                if sample % 11 == 5 { records.append((session, Self.sample(session, ts: ts, value: 175))) }
                if sample % 13 == 7 { records.append((session, Self.sample(session, ts: ts - 500, value: 60))) }
            }
            if index % 2 == 0 {
                records.append((session, #"{"type":"session_end","session":"\#(session)","ts":\#(ts + 1000)}"#))
            }
        }
        return records
    }

    static func sample(_ session: String, ts: Int64, value: Double) -> String {
        #"{"type":"sample","session":"\#(session)","ts":\#(ts),"quantity":"heart_rate","value":\#(Int(value))}"#
    }

    /// A zone change reduced to what both shapes carry: previous and current zone index, and
    /// the cumulative durations, by event id.
    static func reduced(_ values: [String], indexFrom zone: (Any?) -> Int?) throws -> [String: [Int]] {
        var changes: [String: [Int]] = [:]
        for value in values {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String: Any])
            guard object["quantity"] as? String == "heart_rate", let id = object["event_id"] as? String else {
                continue
            }
            let durations = (object["zone_durations"] as? [[String: Any]] ?? []).map { $0["duration_ms"] as? Int ?? -1 }
            changes[id] = [zone(object["previous_zone"]) ?? 0, zone(object["current_zone"]) ?? 0] + durations
        }
        return changes
    }

    @Test(arguments: cases.map { "\($0.peer) on \($0.broker)" })
    func thePeerProducesZoneStreamsZoneChanges(_ name: String) throws {
        let (peer, kind) = try #require(Self.cases.first { "\($0.peer) on \($0.broker)" == name })
        let broker = try TestBroker(kind, partitions: 2)
        defer { broker.stop() }
        let records = Self.input()
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        for record in records { try input.send("workout-events", key: record.key, value: Array(record.value.utf8)) }
        try input.flush()

        // ZoneStream: every input applied and every zone change it counted read back.
        let running = try RunningProcessor(
            configuration: .forTest(bootstrap: broker.bootstrapServers, group: "peer-check"))
        let zoneStream = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["zone-changes"])
        defer { zoneStream.stop() }
        let metrics = running.processor.metrics
        let applied = Eventually.holds(within: 60) {
            metrics.recordsIn.load(ordering: .relaxed) == records.count
                && zoneStream.records("zone-changes").count == metrics.zoneChanges.load(ordering: .relaxed)
        }
        #expect(running.stop() == nil)
        try #require(applied, "ZoneStream applied \(metrics.recordsIn.load(ordering: .relaxed)) of \(records.count)")
        let expected = try Self.reduced(zoneStream.records("zone-changes").map(\.value)) {
            ($0 as? [String: Any])?["index"] as? Int
        }
        #expect(expected.count > 50, "the input crosses zones often: \(expected.count) changes")

        // The peer, on the same records, into a topic of its own.
        let script = RepositoryRoot.url.appendingPathComponent("benchmarks/peers/\(peer)/run.sh").path
        let output = "peer-check-\(peer)"
        // The output topic made first, as the benchmark makes its own (a peer on the embedded
        // broker cannot create it): by a record no reading below takes for a zone change.
        try input.send(output, key: "topic", value: Array(#"{"note":"the topic is made"}"#.utf8))
        try input.flush()
        let run = try ChildProcess.run(
            "/bin/bash",
            [
                script, "--bootstrap-servers", broker.bootstrapServers, "--input", "workout-events", "--output",
                output, "--records", "\(records.count)", "--group", "peer-check-\(peer)", "--state-dir",
                FileManager.default.temporaryDirectory.appendingPathComponent("zs-peer-\(UUID().uuidString)").path,
            ] + (kind == .mock ? ["--mock"] : []))
        #expect(run.status == 0, "\(peer): \(run.output.suffix(2000))")
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: [output])
        defer { collector.stop() }
        let arrived = collector.wait(seconds: 30) { $0.records(output).count >= expected.count }
        let actual = try Self.reduced(collector.records(output).map(\.value)) { $0 as? Int }
        #expect(arrived && actual == expected, "\(peer): \(actual.count) zone changes, ZoneStream \(expected.count)")
        for (id, change) in expected.sorted(by: { $0.key < $1.key }) where actual[id] != change {
            Issue.record("\(peer): \(id): \(String(describing: actual[id])), ZoneStream \(change)")
            break
        }
    }
}

/// The repository's root, for the peers' scripts.
enum RepositoryRoot {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}

import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// `zonestream state dump --partition N`: what an instance assigned the partition would
/// restore, one JSON line per live session and per finished id still within retention.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct StateDumpTests {
    @Test(arguments: BrokerKind.selected)
    func aPartitionsRestorableStateIsPrinted(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 2)
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let live = WholeWorkout.events("still-riding", person: "p1").dropLast()
        let finished = WholeWorkout.events("done-riding", person: "p2")
        for (session, events) in [("still-riding", Array(live)), ("done-riding", finished)] {
            for event in events { try input.send("workout-events", key: session, value: Array(event.utf8)) }
        }
        try input.flush()
        let outputs = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["workouts-finished"])
        defer { outputs.stop() }
        let processor = try ZoneStreamProcess.testProcessor(bootstrap: broker.bootstrapServers, group: "dump")
        #expect(outputs.wait { $0.records("workouts-finished").count == 1 }, "the finished session's workout")
        // The changelog is written at each commit; stop to be sure the last one is in.
        #expect(processor.signal(SIGTERM))

        var lines: [[String: Any]] = []
        var summaries: [String] = []
        for partition in 0..<2 {
            let (status, output) = try ZoneStreamProcess.runToExit([
                "state", "dump", "--partition", "\(partition)", "--bootstrap-servers", broker.bootstrapServers,
                // The processor's application, on the default group's topics (a changelog names its writer).
                "--set", "group_id=dump", "--set", "topics.changelog=zonestream-changelog",
            ])
            #expect(status == 0, "\(output)")
            for line in output.split(separator: "\n") {
                if line.hasPrefix("{") {
                    lines.append(
                        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]))
                } else if line.contains("changelog partition") {
                    summaries.append(String(line))
                }
            }
        }
        let sessions = lines.filter { $0["kind"] as? String == "session" }.compactMap { $0["state"] as? [String: Any] }
        #expect(sessions.map { $0["session"] as? String } == ["still-riding"], "\(lines)")
        let heartRate = (sessions.first?["zone_groups"] as? [String: Any])?["heart_rate"] as? [String: Any]
        #expect(heartRate?["samples"] as? Int == 5)
        let ended = lines.filter { $0["kind"] as? String == "finished" }
        #expect(ended.map { $0["session"] as? String } == ["done-riding"] && ended.first?["finished_wall_ms"] is Int)
        #expect(summaries.count == 2, "a summary per partition on standard error: \(summaries)")

        let (status, output) = try ZoneStreamProcess.runToExit([
            "state", "dump", "--partition", "7", "--bootstrap-servers", broker.bootstrapServers,
        ])
        #expect(status == 64 && output.contains("has partitions 0 to 1"), "\(output)")
    }
}

import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// `zonestream dlq replay`: inputs dead-lettered for a cause that is then fixed (here a
/// session refused at `max_live_sessions`, then the cap raised) are re-produced with their
/// original key and bytes and processed; a replayed record that fails again is recognised by
/// its header and not replayed a second time.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct DeadLetterReplayTests {
    static func replay(_ bootstrap: String, _ extra: [String]) throws -> String {
        let (status, output) = try ZoneStreamProcess.runToExit(
            ["dlq", "replay", "--bootstrap-servers", bootstrap, "--reason", "session_limit"] + extra, seconds: 90)
        #expect(status == 0, "\(output)")
        return output
    }

    @Test(arguments: BrokerKind.selected)
    func refusedInputsAreReplayedOnceTheirCauseIsFixed(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 1)
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let outputs = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "zonestream-dlq"])
        defer { outputs.stop() }

        // One live session at most: "kept" is live, every event of "refused" is dead-lettered.
        let limited = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "replay", extra: ["--set", "max_live_sessions=1"])
        try input.send("workout-events", key: "kept", value: Array(WholeWorkout.events("kept", person: "p1")[0].utf8))
        for event in WholeWorkout.events("refused", person: "p2") {
            try input.send("workout-events", key: "refused", value: Array(event.utf8))
        }
        try input.flush()
        // A loaded machine may take a while to start the processor: its dead letters are
        // awaited once it consumes, as long as a restore could take.
        #expect(limited.waitForOutput("partitions assigned", seconds: 120), "\(limited.output.suffix(2000))")
        #expect(
            outputs.wait(seconds: 60) { $0.records("zonestream-dlq").count == 7 },
            "7 dead letters: \(limited.output.suffix(2000))")

        // Replayed while the cause remains: all 7 fail again, and are then recognised.
        let first = try Self.replay(broker.bootstrapServers, [])
        #expect(first.contains("replayed 7 of 7 dead letters with reason session_limit"), "\(first)")
        #expect(first.contains("replayed zonestream-dlq/0/0 -> workout-events key=refused"), "\(first)")
        #expect(outputs.wait(seconds: 60) { $0.records("zonestream-dlq").count == 14 }, "the replays failed again")
        let again = try Self.replay(broker.bootstrapServers, ["--dry-run"])
        #expect(
            again.contains("would replay 7 of 14 dead letters with reason session_limit; skipped: 7 failed again"),
            "\(again)")
        #expect(outputs.records("zonestream-dlq").count == 14, "a dry run produces nothing")
        #expect(limited.signal(SIGTERM))

        // The cap raised: the original dead letters, replayed, make the workout.
        let raised = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "replay", extra: ["--set", "max_live_sessions=10"])
        defer { raised.signal(SIGTERM) }
        #expect(raised.waitForOutput("partitions assigned", seconds: 120), "\(raised.output.suffix(2000))")
        let fixed = try Self.replay(broker.bootstrapServers, [])
        #expect(fixed.contains("replayed 7 of 14"), "\(fixed)")
        #expect(
            outputs.wait(seconds: 60) { collector in
                collector.records("workouts-finished").contains { $0.key == "refused" }
            }, "the replayed session finished")
        #expect(outputs.records("zonestream-dlq").count == 14, "nothing failed this time")
    }
}

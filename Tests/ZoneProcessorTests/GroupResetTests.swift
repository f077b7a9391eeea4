import Foundation
import Testing
import ZoneBench
import ZoneTestSupport

/// `zonestream reset`: refused while the group has a member; once it is stopped, the group's
/// input offsets go back to the start and its state is cleared, so the next run processes
/// everything again from nothing.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct GroupResetTests {
    static func reset(_ bootstrap: String, _ extra: [String] = []) throws -> (status: Int32, output: String) {
        try ZoneStreamProcess.runToExit(
            ["reset", "--bootstrap-servers", bootstrap, "--group", "again"] + extra, seconds: 120)
    }

    @Test(arguments: BrokerKind.selected)
    func aStoppedGroupStartsOverFromNothing(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 2, applications: ["again"])
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        for session in ["first-ride", "second-ride"] {
            for event in DeadLetterReplayTests.events(session, person: "p-\(session)") {
                try input.send("workout-events", key: session, value: Array(event.utf8))
            }
        }
        try input.flush()
        let outputs = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["workouts-finished"])
        defer { outputs.stop() }
        let running = try ZoneStreamProcess.processor(
            bootstrap: broker.bootstrapServers, group: "again", ownTopics: true)
        #expect(outputs.wait { $0.records("workouts-finished").count == 2 }, "both workouts")

        let refused = try Self.reset(broker.bootstrapServers)
        #expect(refused.status == 1 && refused.output.contains("group again has other members"), "\(refused.output)")
        #expect(running.signal(SIGTERM))

        let preview = try Self.reset(broker.bootstrapServers, ["--dry-run"])
        #expect(preview.status == 0, "\(preview.output)")
        #expect(preview.output.contains("would set again workout-events/0: "), "\(preview.output)")
        #expect(preview.output.contains("would clear again-changelog: 2 keys"), "\(preview.output)")
        let done = try Self.reset(broker.bootstrapServers)
        #expect(done.status == 0 && done.output.contains("cleared again-changelog: 2 keys"), "\(done.output)")
        #expect(done.output.contains(" -> 0"), "\(done.output)")

        // The next run reads everything again, with no memory of the finished sessions.
        let restarted = try ZoneStreamProcess.processor(
            bootstrap: broker.bootstrapServers, group: "again", ownTopics: true)
        defer { restarted.signal(SIGTERM) }
        #expect(outputs.wait { $0.records("workouts-finished").count == 4 }, "both workouts again")
    }
}

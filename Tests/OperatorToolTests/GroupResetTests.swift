import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// `zonestream reset`: refused while the group has a member; once it is stopped, the group's
/// input offsets go back to the start and its state is cleared, so the next run processes
/// everything again from nothing.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
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
            for event in WholeWorkout.events(session, person: "p-\(session)") {
                try input.send("workout-events", key: session, value: Array(event.utf8))
            }
        }
        try input.flush()
        let outputs = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["workouts-finished"])
        defer { outputs.stop() }
        let running = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "again", ownTopics: true)
        #expect(outputs.wait { $0.records("workouts-finished").count == 2 }, "both workouts")

        let refused = try Self.reset(broker.bootstrapServers)
        #expect(refused.status == 1 && refused.output.contains(Self.refusal(kind, group: "again")), "\(refused.output)")
        #expect(running.signal(SIGTERM))

        // The embedded broker cannot describe groups: there the operator says the group is stopped.
        let stopped = kind == .mock ? ["--group-stopped"] : []
        let preview = try Self.reset(broker.bootstrapServers, ["--dry-run"] + stopped)
        #expect(preview.status == 0, "\(preview.output)")
        #expect(preview.output.contains("would set again workout-events/0: "), "\(preview.output)")
        #expect(preview.output.contains("would clear again-changelog: 2 keys"), "\(preview.output)")
        let done = try Self.reset(broker.bootstrapServers, stopped)
        #expect(done.status == 0 && done.output.contains("cleared again-changelog: 2 keys"), "\(done.output)")
        #expect(done.output.contains(" -> 0"), "\(done.output)")

        // The next run reads everything again, with no memory of the finished sessions.
        let restarted = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "again", ownTopics: true)
        defer { restarted.signal(SIGTERM) }
        #expect(outputs.wait { $0.records("workouts-finished").count == 4 }, "both workouts again")
    }

    /// Why a reset of a live `group` is refused: its coordinator names its members; the
    /// embedded broker cannot describe groups, so there the operator must say it is stopped.
    static func refusal(_ kind: BrokerKind, group: String) -> String {
        kind == .mock ? "run again with --group-stopped" : "group \(group) has other members"
    }

    /// A live group is refused without a rebalance: the tool asks the group's coordinator and
    /// never joins, so the live instance keeps its partition. On a one-partition input, where
    /// a tool that joined could be given the only partition and believe the group empty, every
    /// try is refused. The embedded broker cannot describe groups: there the tool refuses to
    /// act without the operator's word that the group is stopped, and joins nothing.
    @Test(arguments: BrokerKind.selected)
    func aLiveGroupIsRefusedWithoutARebalance(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 1, applications: ["live"])
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let outputs = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["workouts-finished"])
        defer { outputs.stop() }
        let running = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "live", ownTopics: true)
        defer { running.signal(SIGTERM) }
        for event in WholeWorkout.events("first-ride", person: "p1") {
            try input.send("workout-events", key: "first-ride", value: Array(event.utf8))
        }
        try input.flush()
        #expect(outputs.wait { $0.records("workouts-finished").count == 1 }, "\(running.output.suffix(2000))")
        let assignments = running.output.components(separatedBy: "partitions assigned").count
        for _ in 0..<10 {
            let refused = try ZoneStreamProcess.runToExit(
                ["reset", "--bootstrap-servers", broker.bootstrapServers, "--group", "live"], seconds: 60)
            #expect(refused.status == 1, "\(refused.output)")
            #expect(refused.output.contains(Self.refusal(kind, group: "live")), "\(refused.output)")
            #expect(refused.output.contains("nothing was changed"), "\(refused.output)")
        }
        #expect(!running.output.contains("partitions revoked"), "the live instance kept its partition")
        #expect(running.output.components(separatedBy: "partitions assigned").count == assignments)
        // The instance carries on where it was: the next workout is counted, the first not again.
        for event in WholeWorkout.events("second-ride", person: "p2") {
            try input.send("workout-events", key: "second-ride", value: Array(event.utf8))
        }
        try input.flush()
        #expect(outputs.wait { $0.records("workouts-finished").count == 2 })
        #expect(Set(outputs.records("workouts-finished").compactMap(\.key)) == ["first-ride", "second-ride"])
    }
}

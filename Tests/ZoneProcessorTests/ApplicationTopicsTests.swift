import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// Internal topics belong to one application: each group's changelogs and repartition topics
/// are named after it, every state record names its writer, and an instance refuses state
/// another application wrote, while state written before records named their writer (the
/// upgrade path: the old names set by hand) is adopted.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct ApplicationTopicsTests {
    static let sessions = ["morning-ride", "evening-ride"]

    @Test(arguments: BrokerKind.selected)
    func twoApplicationsOnOneClusterEachProduceEverything(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 2, applications: ["gym-a", "gym-b"])
        defer { broker.stop() }
        _ = try Self.sendingTwoWorkouts(to: broker)
        let outputs = try OutputCollector(
            bootstrap: broker.bootstrapServers,
            topics: [
                "workouts-finished", "zonestream-dlq", "gym-a-changelog", "gym-b-changelog", "zonestream-changelog",
            ])
        defer { outputs.stop() }

        // The first application finishes both workouts and stops.
        let first = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "gym-a", ownTopics: true)
        #expect(outputs.wait { $0.records("workouts-finished").count == 2 }, "gym-a: \(first.output.suffix(2000))")
        #expect(first.signal(SIGTERM))

        // A second application over the same input keeps its state apart, so it counts both
        // workouts too instead of restoring them as finished.
        let second = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "gym-b", ownTopics: true)
        defer { second.signal(SIGTERM) }
        #expect(outputs.wait { $0.records("workouts-finished").count == 4 }, "gym-b: \(second.output.suffix(2000))")
        #expect(outputs.wait { $0.records("gym-b-changelog").count >= 2 })
        #expect(outputs.records("gym-a-changelog").allSatisfy { $0.application == "gym-a" })
        #expect(outputs.records("gym-b-changelog").allSatisfy { $0.application == "gym-b" })
        #expect(outputs.records("zonestream-changelog").isEmpty, "the default group's changelog is not written")
        #expect(outputs.records("zonestream-dlq").isEmpty)
        #expect(second.signal(SIGTERM))

        // A third application pointed at the first one's topics by hand is refused at start,
        // naming the writer, before it consumes anything.
        let pinned = Self.internalTopicSettings(named: "gym-a")
        let refused = try ZoneStreamProcess.runToExit(
            ["run", "--bootstrap-servers", broker.bootstrapServers, "--http-port", "0", "--set", "group_id=gym-c"]
                + pinned, seconds: 60)
        #expect(refused.status == 78, "\(refused.output.suffix(2000))")
        #expect(refused.output.contains("written by application 'gym-a', not 'gym-c'"), "\(refused.output)")
        #expect(!refused.output.contains("partitions assigned"), "nothing was consumed")
    }

    /// Upgrading a group other than the default one: its state from before internal topics
    /// were named after it is in the default names, written without the owner header. Set to
    /// those names, it is adopted: the sessions it knows finished are not counted again.
    @Test(arguments: BrokerKind.selected)
    func stateWithoutAWriterIsAdoptedWhenItsTopicsAreNamed(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 2, applications: ["gym-a", "gym-legacy"])
        defer { broker.stop() }
        let input = try Self.sendingTwoWorkouts(to: broker)
        let outputs = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "zonestream-dlq", "gym-a-changelog"])
        defer { outputs.stop() }
        let first = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "gym-a", ownTopics: true)
        #expect(outputs.wait { $0.records("workouts-finished").count == 2 }, "\(first.output.suffix(2000))")
        #expect(outputs.wait { $0.records("gym-a-changelog").filter { !$0.isTombstone }.count >= 2 })
        #expect(first.signal(SIGTERM))

        // The state as an older release wrote it: the same records, no header, default names.
        for record in outputs.records("gym-a-changelog") {
            try input.send("zonestream-changelog", key: record.key, value: record.bytes, partition: record.partition)
        }
        try input.flush()
        let upgraded = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "gym-legacy",
            extra: ["--set", "topics.changelog=zonestream-changelog"], ownTopics: true)
        defer { upgraded.signal(SIGTERM) }
        #expect(upgraded.waitForOutput("partition restored", seconds: 60), "\(upgraded.output.suffix(3000))")
        // A new group reads its input from the start; the adopted state knows both sessions
        // finished, so only the sessions after them are counted (one on each partition, read
        // after the old ones).
        for partition in Int32(0)..<2 {
            let session = "late-ride-\(partition)"
            for event in WholeWorkout.events(session, person: "p-late") {
                try input.send("workout-events", key: session, value: Array(event.utf8), partition: partition)
            }
        }
        try input.flush()
        #expect(
            outputs.wait {
                $0.records("workouts-finished").filter { $0.key?.hasPrefix("late-ride") == true }.count == 2
            }, "\(upgraded.output.suffix(3000))")
        #expect(outputs.records("workouts-finished").count == 4, "the adopted sessions are not counted again")
    }

    /// One record another application wrote, buried under more of the partition's own records
    /// than the start's check reads: the restore meets it, and the instance stops with exit 78,
    /// naming the topic, partition, offset and owner, rather than restoring or skipping it.
    @Test(arguments: BrokerKind.selected)
    func aForeignRecordAnywhereInAChangelogStopsTheInstance(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 1, applications: ["gym-a"])
        defer { broker.stop() }
        let input = try Self.sendingTwoWorkouts(to: broker)
        let outputs = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "gym-a-changelog"])
        defer { outputs.stop() }
        let first = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "gym-a", ownTopics: true)
        #expect(outputs.wait { $0.records("workouts-finished").count == 2 }, "\(first.output.suffix(2000))")
        #expect(outputs.wait { $0.records("gym-a-changelog").contains { !$0.isTombstone } })
        #expect(first.signal(SIGTERM))

        let own = try #require(outputs.records("gym-a-changelog").last { !$0.isTombstone })
        let foreignOffset = outputs.records("gym-a-changelog").count
        try input.send("gym-a-changelog", key: own.key, value: own.bytes, partition: 0, application: "intruder")
        for _ in 0..<20 {
            try input.send("gym-a-changelog", key: own.key, value: own.bytes, partition: 0, application: "gym-a")
        }
        try input.flush()
        let refused = try ZoneStreamProcess.runToExit(
            [
                "run", "--bootstrap-servers", broker.bootstrapServers, "--http-port", "0", "--set", "group_id=gym-a",
                "--set", "workers=1",
            ], seconds: 90)
        #expect(refused.status == 78, "\(refused.output.suffix(2000))")
        #expect(
            refused.output.contains("'gym-a-changelog' partition 0 offset \(foreignOffset)")
                && refused.output.contains("written by application 'intruder', not 'gym-a'"),
            "\(refused.output.suffix(2000))")
    }

    /// Two copies of the exactly-once StatefulSet on one cluster: both applications' instances
    /// are `zonestream-0`, the second names itself `application: gym-b`. Their transactional
    /// ids carry their group, so neither fences the other while both run, and their outputs
    /// never mix: each finishes every workout once, into its own topics. (With one
    /// `transactional_id_prefix` set for both, the second fences the first at once.)
    @Test(arguments: BrokerKind.noidaOnly)
    func twoExactlyOnceApplicationsWithTheSameInstanceIDsRunSideBySide(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 2, applications: ["gym-a", "gym-b"])
        defer { broker.stop() }
        let input = try Self.sendingTwoWorkouts(to: broker)
        let identity = ["ZONESTREAM_INSTANCE_ID": "zonestream-0"]
        let exactlyOnce = ["--set", "processing_guarantee=exactly_once", "--set", "create_topics.partitions=2"]
        let first = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "gym-a", extra: exactlyOnce, environment: identity,
            ownTopics: true)
        defer { first.signal(SIGTERM) }
        let second = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "gym-b", extra: exactlyOnce + ["--set", "application=gym-b"],
            environment: identity, ownTopics: true)
        defer { second.signal(SIGTERM) }
        // gym-b creates its outputs as it starts; read them (committed only) once it has.
        #expect(second.waitForOutput("partitions assigned", seconds: 60), "\(second.output.suffix(2000))")
        let outputs = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "gym-b-workouts-finished"])
        defer { outputs.stop() }
        #expect(outputs.wait { $0.records("workouts-finished").count == 2 }, "gym-a: \(first.output.suffix(2000))")
        #expect(
            outputs.wait { $0.records("gym-b-workouts-finished").count == 2 }, "gym-b: \(second.output.suffix(2000))")
        // Both keep committing transactions side by side: a later pair of workouts reaches both.
        for session in ["noon-ride", "night-ride"] {
            for event in WholeWorkout.events(session, person: "p-\(session)") {
                try input.send("workout-events", key: session, value: Array(event.utf8))
            }
        }
        try input.flush()
        #expect(outputs.wait { $0.records("workouts-finished").count == 4 }, "gym-a: \(first.output.suffix(2000))")
        #expect(
            outputs.wait { $0.records("gym-b-workouts-finished").count == 4 }, "gym-b: \(second.output.suffix(2000))")
        for process in [first, second] {
            #expect(!process.output.lowercased().contains("fatal error"), "\(process.output.suffix(2000))")
            #expect(process.signal(SIGTERM), "each stops cleanly: neither was fenced out")
        }
        #expect(
            outputs.records("workouts-finished").count == 4 && outputs.records("gym-b-workouts-finished").count == 4)
    }

    /// A producer that has sent both of ``sessions``, each a whole workout.
    static func sendingTwoWorkouts(to broker: TestBroker) throws -> TestInput {
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        for session in sessions {
            for event in WholeWorkout.events(session, person: "p-\(session)") {
                try input.send("workout-events", key: session, value: Array(event.utf8))
            }
        }
        try input.flush()
        return input
    }

    /// `--set` flags naming every internal topic as `application`'s.
    static func internalTopicSettings(named application: String) -> [String] {
        ["changelog", "person-workouts", "person-changelog", "class-workouts", "class-changelog"].flatMap {
            ["--set", "topics.\($0.replacingOccurrences(of: "-", with: "_"))=\(application)-\($0)"]
        }
    }
}

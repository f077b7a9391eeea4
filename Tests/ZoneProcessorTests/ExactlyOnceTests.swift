import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// Exactly-once shown end to end on noida-db, which writes transaction markers and honours
/// `read_committed` (the mock does neither: TransactionFlowTests covers the API flow there).
/// Load generator traffic through two instances; one is SIGKILLed in the middle of a
/// transaction and started again. The load generator's oracle then reads `zone-changes` and
/// `workouts-finished` with `read_committed` to the end of every partition.
@Suite(.processSuite(.heavy), .serialized, .timeLimit(.minutes(10)))
struct ExactlyOnceTests {
    enum Guarantee: String, CaseIterable, CustomStringConvertible {
        case exactlyOnce = "exactly_once"
        case atLeastOnce = "at_least_once"
        var description: String { rawValue }
    }

    /// An instance of the group with `guarantee`, every instance from the same settings.
    /// `instance` is its identity, given through the environment (`ZONESTREAM_INSTANCE_ID`,
    /// as a StatefulSet gives each pod its name): its transactional ids and its static group
    /// membership (`group.instance.id`), which a restarted instance takes over. (noida-db does
    /// not expire a member that stopped heartbeating, so a killed member's partitions would wait
    /// for it; a static member's successor takes them at once.) Nil: no identity of its own.
    static func instance(_ broker: TestBroker, guarantee: Guarantee, instance: String?) throws -> ZoneStreamProcess {
        try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "eos-\(guarantee)",
            extra: ["--set", "processing_guarantee=\(guarantee.rawValue)"],
            environment: instance.map { ["ZONESTREAM_INSTANCE_ID": $0] } ?? [:])
    }

    static func loadgen(_ broker: TestBroker, guarantee: Guarantee) throws -> ZoneStreamProcess {
        try ZoneStreamProcess(
            [
                "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "60", "--session-seconds",
                "120",
                "--rate", "450", "--prefix", "eos", "--check", "--check-timeout-s", "120", "--profile-settle-ms", "500",
            ] + (guarantee == .exactlyOnce ? ["--exactly-once"] : []))
    }

    /// Instances of the group, one per identity (nil: none of its own), once each has its
    /// partitions.
    static func started(_ broker: TestBroker, guarantee: Guarantee, identities: [String?]) throws -> [ZoneStreamProcess]
    {
        let instances = try identities.map { try instance(broker, guarantee: guarantee, instance: $0) }
        for instance in instances { #expect(instance.waitForOutput("partitions assigned", seconds: 30)) }
        return instances
    }

    /// The load generator's `check:` line.
    static func checkLine(_ loadgen: ZoneStreamProcess) -> String {
        loadgen.output.split(separator: "\n").first { $0.hasPrefix("check:") }.map(String.init) ?? ""
    }

    static func stopAll(_ instances: [ZoneStreamProcess]) {
        for instance in instances {
            #expect(instance.signal(SIGTERM, waitSeconds: 20), "stops on SIGTERM")
        }
    }

    /// The numbers after "records read committed," etc. in the check's exactly-once line.
    static func count(_ label: String, in output: String) -> Int? {
        guard let range = output.range(of: label) else { return nil }
        let before = output[..<range.lowerBound].reversed().drop { $0 == " " }.prefix { $0.isNumber }
        return Int(String(before.reversed()))
    }

    /// How many instances run, under which guarantee.
    struct Scenario: Sendable, CustomStringConvertible {
        let guarantee: Guarantee
        let instances: Int
        var description: String { "\(instances) instances, \(guarantee)" }
    }

    @Test(
        arguments: BrokerKind.noidaOnly,
        [
            Scenario(guarantee: .exactlyOnce, instances: 2), Scenario(guarantee: .atLeastOnce, instances: 2),
            Scenario(guarantee: .exactlyOnce, instances: 3),
        ])
    func anInstanceKilledMidTransactionAndRestarted(on kind: BrokerKind, scenario: Scenario) throws {
        let guarantee = scenario.guarantee
        let broker = try TestBroker(kind, partitions: 6)
        defer { broker.stop() }
        var instances = try Self.started(
            broker, guarantee: guarantee, identities: Array(["a", "b", "c"].prefix(scenario.instances)))
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["zone-changes"])
        defer { collector.stop() }
        let loadgen = try Self.loadgen(broker, guarantee: guarantee)
        // Mid-stream: traffic flows, so each instance has a transaction open at all times.
        FailureTests.waitForFlow(collector, zoneChanges: 200)
        let killed = Date()
        #expect(instances[0].signal(SIGKILL), "SIGKILL")
        // Started again with the same transactional id: the broker aborts the open transaction.
        instances[0] = try Self.instance(broker, guarantee: guarantee, instance: "a")
        // Recovery: until the restarted instance has restored its partitions' state.
        #expect(
            instances[0].waitForOutput("partition restored", seconds: 60), "the restarted instance restored its state")
        let recovery = Date().timeIntervalSince(killed)
        #expect(loadgen.isRunning, "the instance was killed and restarted while traffic flowed")
        FailureTests.expectChecked(loadgen, instances)
        let check = Self.checkLine(loadgen)
        #expect(!check.contains("missing"), "\(check)")
        if guarantee == .exactlyOnce {
            #expect(!check.contains("repeats"), "exactly once: no output twice: \(check)")
            let committed = Self.count("records read committed", in: check) ?? 0
            let uncommitted = Self.count("read uncommitted", in: check) ?? 0
            #expect(committed > 0 && uncommitted >= committed, "\(check)")
            #expect(!check.contains("end of the topics not reached"), "\(check)")
            print(
                "exactly-once after SIGKILL mid-transaction: \(check) (restored \(String(format: "%.1f", recovery)) s after the SIGKILL)"
            )
        } else {
            print("at-least-once after SIGKILL: \(check)")
        }
        Self.stopAll(instances)
    }

    /// Instances started from identical settings with no identity of their own (a
    /// Deployment's pods, one ConfigMap): each draws its own transactional ids, so none fences
    /// another. Two and three instances through a class, one of them started while it runs (a
    /// scale-out): every output exactly once, and every instance still running at the end.
    @Test(arguments: BrokerKind.noidaOnly, [2, 3])
    func instancesFromIdenticalSettingsNeverFenceEachOther(on kind: BrokerKind, count: Int) throws {
        let broker = try TestBroker(kind, partitions: 6)
        defer { broker.stop() }
        var instances = try Self.started(
            broker, guarantee: .exactlyOnce, identities: Array(repeating: nil, count: count - 1))
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["zone-changes"])
        defer { collector.stop() }
        let loadgen = try Self.loadgen(broker, guarantee: .exactlyOnce)
        FailureTests.waitForFlow(collector, zoneChanges: 200)
        instances.append(try Self.instance(broker, guarantee: .exactlyOnce, instance: nil))
        FailureTests.expectChecked(loadgen, instances)
        let check = Self.checkLine(loadgen)
        #expect(!check.contains("missing") && !check.contains("repeats"), "\(check)")
        for (index, instance) in instances.enumerated() {
            #expect(instance.isRunning, "instance \(index) stopped: \(instance.output.suffix(1500))")
            #expect(
                !instance.output.contains("Fatal error"),
                "instance \(index) was fenced: \(instance.output.suffix(1500))")
        }
        print("\(count) instances from identical settings, exactly-once: \(check)")
        Self.stopAll(instances)
    }

    /// The person stage killed while it counts: classes of 30 s on six days, the same members
    /// in each, so finished workouts reach the person stage all through the run; one instance
    /// is SIGKILLed once summaries flow and started again. Exactly once: no person summary
    /// twice, and each person's latest summary counts every workout once (the oracle's).
    @Test(arguments: BrokerKind.noidaOnly)
    func aPersonStageKilledWhileCountingCountsEachWorkoutOnce(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        var instances = try Self.started(broker, guarantee: .exactlyOnce, identities: ["a", "b"])
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["person-summaries"])
        defer { collector.stop() }
        let loadgen = try ZoneStreamProcess([
            "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "30", "--session-seconds", "30",
            "--days", "6", "--rate", "600", "--prefix", "people", "--check", "--exactly-once",
            "--check-timeout-s", "120", "--profile-settle-ms", "500",
        ])
        let flowing = collector.wait(seconds: 90) { $0.records("person-summaries").count >= 24 }
        #expect(flowing, "person summaries out")
        #expect(instances[0].signal(SIGKILL), "SIGKILL")
        instances[0] = try Self.instance(broker, guarantee: .exactlyOnce, instance: "a")
        #expect(loadgen.isRunning, "the instance was killed and restarted while workouts were counted")
        FailureTests.expectChecked(loadgen, instances)
        let check = Self.checkLine(loadgen)
        #expect(check.contains("24 of 24 persons' latest summaries match"), "\(check)")
        #expect(!check.contains("repeats"), "exactly once: no output twice: \(check)")
        print("person stage after SIGKILL, exactly-once: \(check)")
        Self.stopAll(instances)
    }

    /// The class stage killed mid-class: 60 workouts of one class reach its repartition topic
    /// in three waves through two instances, and after the second instance `a` is SIGKILLed
    /// mid-class and started again (as the person stage's test does), the class's partition
    /// restored from its changelog wherever it lands. Exactly once: the class has one summary per workout (read committed), with 1 to
    /// 60 workouts each once, so none was counted twice or lost.
    @Test(arguments: BrokerKind.noidaOnly)
    func aClassStageKilledMidClassCountsEachWorkoutOnce(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        var instances = try Self.started(broker, guarantee: .exactlyOnce, identities: ["a", "b"])
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["class-summaries"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let sessionClass = "studio-1/spin-0700"
        func wave(_ range: Range<Int>) throws {
            for index in range {
                let start = 1_717_225_200_000 + Int64(index) * 1000
                let record =
                    #"{"schema":1,"type":"class_workout","class":"\#(sessionClass)","session":"rider-\#(index)","start_ts":\#(start),"end_ts":\#(start + 2_700_000),"duration_ms":2700000,"person":"rider-\#(index)","points_tenths":\#(100 + index),"calories_kcal":\#(300 + index),"kilojoules_tenths":null,"intensity_ms":[0,0,900000,900000,900000,0],"compliance":{"heart_rate":{"in_ms":2000000,"counted_ms":2700000}}}"#
                try input.send("zonestream-class-workouts", key: sessionClass, value: Array(record.utf8))
                try input.flush()
            }
        }
        try wave(0..<20)
        #expect(collector.wait(seconds: 90) { $0.records("class-summaries").count >= 20 }, "the first wave counted")
        try wave(20..<40)
        #expect(instances[0].signal(SIGKILL), "SIGKILL")
        instances[0] = try Self.instance(broker, guarantee: .exactlyOnce, instance: "a")
        try wave(40..<60)
        // The restarted stage first waits for the killed one's open transaction to be aborted
        // (fenced, or after transaction.timeout.ms) before its restore can read past it.
        let counted = collector.wait(seconds: 240) { $0.records("class-summaries").count >= 60 }
        #expect(
            counted,
            "every workout's summary, read committed; the instances: \(instances.map { $0.output.suffix(2000) })")
        // A repeat, if any, would follow its original: read everything the topic holds now.
        #expect(try collector.readToEnd("class-summaries"), "class-summaries read to its end")
        let summaries = try collector.records("class-summaries").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.value.utf8)) as? [String: Any])
        }
        let workouts = summaries.compactMap { $0["workouts"] as? Int }.sorted()
        #expect(workouts == Array(1...60), "each workout counted once: \(workouts)")
        let last = summaries.max { ($0["workouts"] as? Int ?? 0) < ($1["workouts"] as? Int ?? 0) }
        #expect(last?["people"] as? Int == 60)
        #expect((last?["leaderboard"] as? [[String: Any]])?.first?["session"] as? String == "rider-59")
        #expect(collector.records("class-summaries").allSatisfy { $0.key == "\(sessionClass)@2024-06-01" })
        print(
            "class stage after SIGKILL, exactly-once: \(summaries.count) summaries, workouts 1 to \(workouts.last ?? 0)"
        )
        Self.stopAll(instances)
    }

    /// A zombie: instance `a` frozen (SIGSTOP) while its producer and group membership still
    /// exist, and a new instance started with its transactional id and `group.instance.id`.
    /// Once thawed, the broker itself fences the old one (no injected error), by whichever it
    /// meets first: its group membership ("Static consumer fenced") or its producer epoch
    /// ("fenced by a newer instance"). It stops with an error naming that, and none of what it
    /// wrote is read committed: the oracle sees every output exactly once.
    @Test(arguments: BrokerKind.noidaOnly)
    func aZombieIsFencedByTheBroker(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        var instances = try Self.started(broker, guarantee: .exactlyOnce, identities: ["a", "b"])
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["zone-changes"])
        defer { collector.stop() }
        let loadgen = try Self.loadgen(broker, guarantee: .exactlyOnce)
        FailureTests.waitForFlow(collector, zoneChanges: 200)
        let zombie = instances[0]
        kill(zombie.pid, SIGSTOP)
        let successor = try Self.instance(broker, guarantee: .exactlyOnce, instance: "a")
        instances.append(successor)
        #expect(successor.waitForOutput("partitions assigned", seconds: 60), "the successor joined")
        kill(zombie.pid, SIGCONT)
        let stopped = zombie.waitForExit(seconds: 60)
        #expect(stopped, "the fenced zombie stopped: \(zombie.output.suffix(3000))")
        if stopped { #expect(zombie.exitStatus != 0) }
        #expect(
            zombie.output.contains("Static consumer fenced") || zombie.output.contains("fenced by a newer instance"),
            "\(zombie.output.suffix(1500))")
        FailureTests.expectChecked(loadgen, instances)
        let check = Self.checkLine(loadgen)
        #expect(!check.contains("missing") && !check.contains("repeats"), "\(check)")
        print("zombie fenced: \(check)")
        for instance in instances.dropFirst() { #expect(instance.signal(SIGTERM, waitSeconds: 20)) }
    }
}

import Foundation
import Synchronization
import Testing
import ZoneEngine
import ZoneHarness
import ZoneTestSupport

@testable import ZoneProcessor

/// Tables read as of the event (contract, section 1) without holding what does not need them:
/// a session start waits for the tables, its worker's other sessions do not, and a broker that
/// answers the tables' end offsets late costs one wait, not one per session start.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(5)))
struct TableJoinTests {
    static let joinWaitMs = 1500

    static func start(_ session: String, person: String, ts: Int64) -> [UInt8] {
        Array(#"{"type":"session_start","session":"\#(session)","ts":\#(ts),"person":"\#(person)"}"#.utf8)
    }

    static func sample(_ session: String, ts: Int64, value: Int) -> [UInt8] {
        Array(#"{"type":"sample","session":"\#(session)","ts":\#(ts),"quantity":"heart_rate","value":\#(value)}"#.utf8)
    }

    /// The broker answers every ListOffsets request 4 s late (a leader move, a slow broker)
    /// while a class of 40 walks in over 8 batches spread across more than `join_wait_ms`, and
    /// a live member on the same worker keeps changing zones: that member's zone changes come
    /// at once throughout, every class member starts within one `join_wait_ms` of walking in
    /// (with its profile's zones: the profiles were there before), and the members who came
    /// after the first wait ran out did not wait at all.
    @Test func aSlowBrokerCostsAClassOneWaitAndNeverHoldsAnUnrelatedSession() throws {
        let broker = try TestBroker(.mock, partitions: 2)
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let members = (0..<40).map { "member-\($0)" }
        for person in members + ["regular"] {
            // max_hr 200: zones at 120, 140, 160, 180 (the default zones would start at 91).
            try input.send("zone-profiles", key: person, value: Array(#"{"person":"\#(person)","max_hr":200}"#.utf8))
        }
        try input.flush()
        var configuration = ProcessorConfiguration.forTest(
            bootstrap: broker.bootstrapServers, group: "join-slow", workers: 1)
        configuration.joinWaitMs = Self.joinWaitMs
        let running = try RunningProcessor(configuration: configuration)
        defer { running.stop() }
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["zone-changes"])
        defer { collector.stop() }
        func zoneChanges(_ session: String) -> [String] {
            collector.records("zone-changes").filter { $0.key == session }.map(\.value)
        }

        let ts: Int64 = 1_717_200_000_000
        try input.send("workout-events", key: "regular", value: Self.start("regular", person: "regular", ts: ts))
        try input.send("workout-events", key: "regular", value: Self.sample("regular", ts: ts, value: 110))
        try input.flush()
        #expect(Eventually.holds(within: 30) { zoneChanges("regular").count == 1 })

        #expect(broker.mock?.control("errors 1 2 1000 0 4000") == true, "ListOffsets answered 4 s late")
        var walkedIn: [String: Date] = [:]
        var firstZone: [String: (Date, String)] = [:]
        var regularLatencies: [Double] = []
        func look() {
            for member in walkedIn.keys where firstZone[member] == nil {
                if let change = zoneChanges(member).first { firstZone[member] = (Date(), change) }
            }
        }
        for batch in 0..<8 {
            let batchStart = Date()
            for member in members[(batch * 5)..<(batch * 5 + 5)] {
                try input.send("workout-events", key: member, value: Self.start(member, person: member, ts: ts))
                try input.send("workout-events", key: member, value: Self.sample(member, ts: ts, value: 150))
                walkedIn[member] = batchStart
            }
            // The regular member moves between zones 1 and 2 with each batch.
            let value = batch % 2 == 0 ? 130 : 110
            try input.send(
                "workout-events", key: "regular",
                value: Self.sample("regular", ts: ts + Int64(batch + 1) * 5000, value: value))
            try input.flush()
            // The gateway's pace: a batch every 300 ms, so the class walks in over 2.4 s.
            let seen = Eventually.holds(within: 10, poll: 0.01) {
                look()
                if regularLatencies.count == batch, zoneChanges("regular").count == batch + 2 {
                    regularLatencies.append(Date().timeIntervalSince(batchStart))
                }
                return regularLatencies.count == batch + 1 && Date().timeIntervalSince(batchStart) >= 0.3
            }
            #expect(seen, "the regular member's zone change after batch \(batch)")
        }
        #expect(
            Eventually.holds(within: 30, poll: 0.01) {
                look()
                return firstZone.count == members.count
            })

        let limit = Double(Self.joinWaitMs) / 1000
        // Held, the regular member would wait a whole join_wait_ms; each class member waits one at
        // most (a wait per batch would add up to several), with room for a loaded machine.
        #expect(regularLatencies.allSatisfy { $0 < limit }, "regular member held: \(regularLatencies)")
        let waits = members.compactMap { member in firstZone[member].map { $0.0.timeIntervalSince(walkedIn[member]!) } }
        #expect(waits.allSatisfy { $0 < 2 * limit }, "a member waited more than one join_wait_ms: \(waits)")
        #expect(
            members.allSatisfy { firstZone[$0]?.1.contains(#""boundaries":[120,140,160,180]"#) == true },
            "every member started with the profile's zones")
        let metrics = running.processor.metrics
        #expect(metrics.joinsUnwaited.load(ordering: .relaxed) > 0, "members after the first wait did not wait")
        #expect(metrics.joinTimeouts.load(ordering: .relaxed) > 0)
    }

    /// Held sessions go on as soon as the tables cover them; with `join_wait_ms=0` nothing is
    /// held, and the coverage stays with offsets that are true whoever owns the partition.
    @Test func coverageIsMonotonicAndADemandWakesTheProber() {
        let coverage = TableCoverage()
        #expect(coverage.coveredBelow(3) == 0)
        coverage.publish([3: 10])
        coverage.publish([3: 7, 4: 2])
        #expect(coverage.coveredBelow(3) == 10 && coverage.coveredBelow(4) == 2)
        #expect(coverage.covers([3: 10, 4: 1]) && !coverage.covers([4: 3]))
        coverage.demand(partition: 4, below: 5)
        #expect(coverage.wake.wait(timeout: .now() + 1) == .success)
        #expect(coverage.takeDemands() == [4: 5] && coverage.takeDemands().isEmpty)
        #expect(!coverage.isStalled(waitMs: 100))
        coverage.requestSent(atNs: 1_000_000_000)
        #expect(!coverage.isStalled(waitMs: 100, nowNs: 1_050_000_000))
        // A retry keeps the time of the first request the brokers owe an answer to.
        coverage.requestSent(atNs: 1_150_000_000)
        #expect(coverage.isStalled(waitMs: 100, nowNs: 1_200_000_000))
        coverage.answered()
        #expect(!coverage.isStalled(waitMs: 100, nowNs: 1_200_000_000))
        // A worker's clock read just before the prober sent its request: not late at all (a
        // wrapping difference made it late by centuries, and the session started unjoined).
        coverage.requestSent(atNs: 2_000_000_000)
        #expect(!coverage.isStalled(waitMs: 100, nowNs: 1_999_999_999))
        #expect(TableCoverage.elapsed(since: 2_000_000_000, at: 1_999_999_999) == 0)
        #expect(TableCoverage.elapsed(since: 2_000_000_000, at: 2_000_000_500) == 500)
    }
}

/// What a partition holds back: each session's records in their order, the commit below the
/// first held record, and a held session's state claiming nothing from its first held record.
@Suite struct ParkedSessionsTests {
    static func record(_ session: String, _ offset: Int64) -> ParkedSessions.Record {
        ParkedSessions.Record(session: session, offset: offset, key: nil, value: [1], timestampMs: 0, readAtMs: 0)
    }

    @Test func aHeldSessionKeepsItsOrderAndHoldsTheCommitBelowIt() {
        var state = PartitionState(settings: EngineSettings(), wallMs: 0)
        state.nextOffset = 11
        state.parked.hold(first: Self.record("a", 5), nowNs: 0)
        state.parked.hold(first: Self.record("b", 6), nowNs: 0)
        state.parked.append(Self.record("a", 8))
        #expect(state.commitOffset == 5)
        #expect(state.appliedThrough("a") == 5 && state.appliedThrough("b") == 6 && state.appliedThrough("c") == 11)

        let first = state.parked.release { $0.firstOffset == 6 }
        #expect(first.records.map(\.offset) == [6] && first.waits.map(\.coveredBelow) == [7])
        #expect(state.commitOffset == 5 && state.parked.isHolding("a") && !state.parked.isHolding("b"))

        let second = state.parked.release { _ in true }
        #expect(second.records.map(\.offset) == [5, 8])
        #expect(state.parked.isEmpty && state.parked.bytes == 0)
        #expect(state.commitOffset == 11 && state.appliedThrough("a") == 11)
    }
}

/// The caps on live sessions: a count, and their estimated memory, so sessions with long plans
/// of their own cannot fill the memory under the count's cap.
@Suite struct SessionBudgetTests {
    static func plan(steps: Int, source: WorkoutPlan.Source) -> WorkoutPlan {
        WorkoutPlan(
            name: nil, source: source, anchor: 0,
            steps: (0..<steps).map { _ in
                PlanStep(
                    purpose: .work, durationMs: 60_000,
                    targets: PerQuantity(heartRate: .zones(low: 4, high: 5), cyclingPower: nil))
            })
    }

    @Test func longPlansOfTheirOwnAreRefusedByMemoryWhilePlainSessionsStillStart() {
        let own = Self.plan(steps: 200, source: .session)
        let ownBytes = SessionBudget.estimatedBytes(plan: own)
        #expect(ownBytes > 10 * SessionBudget.estimatedBytes(plan: nil))
        #expect(
            SessionBudget.estimatedBytes(plan: Self.plan(steps: 9, source: .class)) < 2 * SessionBudget.sessionBytes)
        let budget = SessionBudget(limit: 1_000, byteLimit: 3 * ownBytes)
        #expect((0..<3).allSatisfy { _ in budget.tryAdmit(plan: own) })
        #expect(!budget.tryAdmit(plan: own), "a fourth long plan is over the memory cap")
        #expect(budget.liveCount == 3 && budget.liveBytes == 3 * ownBytes)
        budget.release(plan: own)
        #expect(budget.tryAdmit(plan: nil) && budget.tryAdmit(plan: nil), "room for plain sessions")
        #expect(budget.liveBytes == 2 * ownBytes + 2 * SessionBudget.sessionBytes)
    }

    @Test func theCountCapStillHoldsAndARefusalTakesNothing() {
        let budget = SessionBudget(limit: 2)
        #expect(budget.tryAdmit(plan: nil) && budget.tryAdmit(plan: nil))
        #expect(!budget.tryAdmit(plan: nil))
        #expect(budget.liveCount == 2 && budget.liveBytes == 2 * SessionBudget.sessionBytes)
    }
}

import Testing
import ZoneEngine

/// Sessions read back from snapshots share one instance of each plan, and the interner lets go
/// of the plans no session holds any more.
@Suite struct PlanInternerTests {
    static func plan(anchor: Int64, steps: Int = 20) -> WorkoutPlan {
        WorkoutPlan(
            name: "intervals", source: .class, anchor: anchor,
            steps: (0..<steps).map { index in
                PlanStep(
                    purpose: index % 2 == 0 ? .work : .recovery, durationMs: 60_000,
                    targets: PerQuantity(heartRate: .zones(low: 3, high: 4), cyclingPower: nil))
            })
    }

    static func readBack(_ session: WorkoutSession, plans: PlanInterner) throws -> WorkoutSession {
        try session.snapshot().withUnsafeBytes { try WorkoutSession(snapshot: $0, plans: plans) }
    }

    static func session(_ id: String, plan: WorkoutPlan) -> WorkoutSession {
        var session = WorkoutSession(id: id, startTimestamp: 0, person: nil, activity: nil, profile: nil, plan: plan)
        _ = session.applySample(.heartRate, at: 1_000, value: 130, settings: EngineSettings())
        return session
    }

    @Test func sessionsOfOnePlanShareItsInstanceAndOtherPlansDoNot() throws {
        let plans = PlanInterner()
        let classPlan = Self.plan(anchor: 0)
        let first = try Self.readBack(Self.session("a", plan: classPlan), plans: plans)
        let second = try Self.readBack(Self.session("b", plan: classPlan), plans: plans)
        let otherAnchor = try Self.readBack(Self.session("c", plan: Self.plan(anchor: 60_000)), plans: plans)
        let otherSteps = try Self.readBack(Self.session("d", plan: Self.plan(anchor: 0, steps: 19)), plans: plans)
        let (firstPlan, secondPlan) = (try #require(first.plan), try #require(second.plan))
        #expect(firstPlan === secondPlan)
        #expect(otherAnchor.plan !== firstPlan && otherSteps.plan !== firstPlan)
        #expect(plans.count == 3)
        // Each session keeps its own progress against the shared plan.
        var advanced = second
        _ = advanced.applySample(.heartRate, at: 61_000, value: 100, settings: EngineSettings())
        #expect(first.liveState(profile: nil).target?.step == 0)
        #expect(advanced.liveState(profile: nil).target?.step == 1)
    }

    @Test func plansNoSessionHoldsAreLetGo() throws {
        let plans = PlanInterner()
        var held: [WorkoutSession] = []
        for anchor in 0..<1_000 {
            let session = try Self.readBack(
                Self.session("s\(anchor)", plan: Self.plan(anchor: Int64(anchor))), plans: plans)
            if anchor < 10 { held.append(session) }
        }
        // Only the ten held plans, and those read since the last sweep, are left.
        #expect(plans.count < 200, "\(plans.count) plans kept")
        #expect(held.count == 10)
        let again = try Self.readBack(Self.session("again", plan: Self.plan(anchor: 3)), plans: plans)
        #expect(again.plan === held[3].plan)
    }
}

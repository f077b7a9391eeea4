import Testing

@testable import ZoneEngine

/// Sessions share one instance of each plan, and one copy of each plan's steps whatever their
/// anchors; the interner lets go of the plans no session holds any more.
@Suite struct PlanInternerTests {
    static func plan(anchor: Int64, steps: Int = 20, stepMs: Int64 = 60_000) -> WorkoutPlan {
        WorkoutPlan(
            name: "intervals", source: .class, anchor: anchor,
            steps: (0..<steps).map { index in
                PlanStep(
                    purpose: index % 2 == 0 ? .work : .recovery, durationMs: stepMs,
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

    @Test func sessionsOfOnePlanShareItsInstanceAndPlansOfItsStepsShareThem() throws {
        let plans = PlanInterner()
        let classPlan = Self.plan(anchor: 0)
        let first = try Self.readBack(Self.session("a", plan: classPlan), plans: plans)
        let second = try Self.readBack(Self.session("b", plan: classPlan), plans: plans)
        let otherAnchor = try Self.readBack(Self.session("c", plan: Self.plan(anchor: 60_000)), plans: plans)
        let otherSteps = try Self.readBack(Self.session("d", plan: Self.plan(anchor: 0, steps: 19)), plans: plans)
        let (firstPlan, secondPlan) = (try #require(first.plan), try #require(second.plan))
        #expect(firstPlan === secondPlan)
        let (anchoredLater, shorter) = (try #require(otherAnchor.plan), try #require(otherSteps.plan))
        #expect(anchoredLater !== firstPlan && anchoredLater.sharesSteps(with: firstPlan))
        #expect(anchoredLater.start(ofStep: 1) == 120_000, "its own anchor, the shared steps")
        #expect(!shorter.sharesSteps(with: firstPlan))
        #expect(plans.count == 2, "one entry per distinct steps")
        // Each session keeps its own progress against the shared plan.
        var advanced = second
        _ = advanced.applySample(.heartRate, at: 61_000, value: 100, settings: EngineSettings())
        #expect(first.liveState(profile: nil).target?.step == 0)
        #expect(advanced.liveState(profile: nil).target?.step == 1)
    }

    @Test func plansNoSessionHoldsAreLetGo() throws {
        let plans = PlanInterner()
        var held: [WorkoutSession] = []
        for index in 0..<1_000 {
            let plan = Self.plan(anchor: 0, stepMs: 60_000 + Int64(index))
            let session = try Self.readBack(Self.session("s\(index)", plan: plan), plans: plans)
            if index < 10 { held.append(session) }
        }
        // Only the ten held plans, and those read since the last sweep, are left.
        #expect(plans.count < 200, "\(plans.count) plans kept")
        #expect(held.count == 10)
        let again = try Self.readBack(Self.session("again", plan: Self.plan(anchor: 0, stepMs: 60_003)), plans: plans)
        #expect(again.plan === held[3].plan)
        let later = try Self.readBack(
            Self.session("later", plan: Self.plan(anchor: 5_000, stepMs: 60_003)), plans: plans)
        #expect(try #require(later.plan).sharesSteps(with: try #require(held[3].plan)))
    }

    /// A class's members share one copy of its name; the names held are bounded.
    @Test func classNamesAreSharedAndBounded() {
        let interner = PlanInterner()
        let first = interner.interned(className: String("studio-3/spin-0700".utf8.map { Character(UnicodeScalar($0)) }))
        let second = interner.interned(className: "studio-3/spin-" + "0700")
        #expect(first == second)
        #expect(
            first.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
                == second.utf8.withContiguousStorageIfAvailable { $0.baseAddress })
        for index in 0..<(PlanInterner.classNamesLimit + 10) { _ = interner.interned(className: "class-\(index)") }
        #expect(interner.interned(className: "class-0") == "class-0")
    }
}

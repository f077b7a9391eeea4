import PropertyBased
import Testing
import ZoneTestSupport

@testable import ZoneEngine

/// The target state is kept with a cached step and reused statuses on the per-sample path;
/// these properties check it against a plain reading of the contract over generated plans and
/// samples: samples before the plan's anchor, inside it, across step bounds and after its end,
/// with gaps longer than the maximum gap, with and without a dwell.
@Suite struct PlanTargetProperties {
    struct Case: Sendable, CustomStringConvertible {
        var anchorSeconds: Int
        var steps: [PlanStep]
        /// Per sample: quantity (true: power), seconds since the previous sample of any quantity, value.
        var samples: [(power: Bool, gap: Int, value: Int)]
        var dwellMs: Int64

        var description: String {
            "anchor \(anchorSeconds) s, dwell \(dwellMs) ms, steps \(steps.map { "\($0.durationMs / 1000) s \($0.targets)" }), samples \(samples)"
        }
    }

    static let target = Gen.oneOf(
        Gen.always(PlanTarget?.none),
        zip(Gen.int(in: 1...5), Gen.int(in: 0...2)).map { PlanTarget?.some(.zones(low: $0, high: $0 + $1)) },
        zip(Gen.int(in: 60...300), Gen.int(in: 0...1)).map { minimum, open in
            PlanTarget?.some(.values(minimum: Double(minimum), maximum: open == 0 ? nil : Double(minimum + 40)))
        })
    static let step = zip(Gen.int(in: 3...40), target, target).map { seconds, heartRate, power in
        PlanStep(
            purpose: .work, durationMs: Int64(seconds) * 1000,
            targets: PerQuantity(heartRate: heartRate, cyclingPower: power))
    }
    static let sample = zip(Gen.bool, Gen.int(in: 1...15), Gen.int(in: 60...320)).map { ($0, $1, $2) }
    static let testCase = zip(
        Gen.int(in: -20...20), step.array(of: 1...6), sample.array(of: 0...80),
        Gen.oneOf(Gen.always(Int64(0)), Gen.always(Int64(4_000)))
    ).map { Case(anchorSeconds: $0, steps: $1, samples: $2, dwellMs: $3) }

    /// A run of `testCase`: the harness after the session ended, the plan, the samples sent, the
    /// zones in use before the end and the end's time; handed over through its snapshot before
    /// sample `cut` when there is one.
    struct Played {
        var h: EngineHarness
        let plan: WorkoutPlan
        let sent: [(quantity: Quantity, at: Int64, value: Double)]
        let configurations: [ZoneConfiguration?]
        let end: Int64
        let summary: WorkoutSummary?
    }

    static func play(_ testCase: Case, handingOverAt cut: Int? = nil) -> Played {
        var settings = EngineSettings()
        settings.targetMinDwellMs = testCase.dwellMs
        var h = EngineHarness(settings: settings)
        h.profiles["p"] = PersonProfile(person: "p", age: 40, functionalThresholdPower: 220)
        let plan = WorkoutPlan(
            name: nil, source: .session, anchor: EngineHarness.ms(Double(testCase.anchorSeconds)),
            steps: testCase.steps)
        h.send(.sessionStart(SessionStartRequest(person: "p", plan: plan)), at: 0)
        var seconds = 0
        var sent: [(quantity: Quantity, at: Int64, value: Double)] = []
        for (index, sample) in testCase.samples.enumerated() {
            if index == cut {
                do { try SessionPersistenceTests.handOver(&h) } catch { Issue.record("restore failed: \(error)") }
            }
            seconds += sample.gap
            let quantity: Quantity = sample.power ? .cyclingPower : .heartRate
            sent.append((quantity, EngineHarness.ms(Double(seconds)), Double(sample.value)))
            h.send(.sample(quantity, value: Double(sample.value), person: nil), at: Double(seconds))
        }
        let configurations = Quantity.allCases.map { h.live?.configuration(for: $0) }
        let summary = h.end(at: Double(seconds) + 1.5)
        return Played(
            h: h, plan: plan, sent: sent, configurations: configurations,
            end: EngineHarness.ms(Double(seconds) + 1.5), summary: summary)
    }

    @Test func timeInTargetAndTargetChangesMatchAPlainReading() async {
        await propertyCheck(count: 400, input: Self.testCase) { testCase in
            let played = Self.play(testCase)
            let (h, plan, sent, configurations, end) =
                (played.h, played.plan, played.sent, played.configurations, played.end)
            guard let planSummary = played.summary?.plan else {
                Issue.record("no summary with a plan")
                return
            }
            for quantity in Quantity.allCases {
                let samples = sent.filter { $0.quantity == quantity }
                let configuration = configurations[quantity == .heartRate ? 0 : 1]
                let reference = Reference(
                    plan: plan, quantity: quantity, configuration: configuration, maxGapMs: h.store.settings.maxGapMs)
                let expected = reference.milliseconds(samples: samples.map { ($0.at, $0.value) }, end: end)
                for step in plan.steps.indices {
                    for status in TargetStatus.allCases {
                        #expect(
                            planSummary.milliseconds(step: step, quantity, status)
                                == expected[step * 3 + Int(status.rawValue)],
                            "\(quantity) step \(step) \(status)")
                    }
                }
                let changes = h.outputs.targetChanges.filter { $0.change.quantity == quantity }.map(\.change)
                let expectedChanges = reference.changes(
                    samples: samples.map { ($0.at, $0.value) }, dwellMs: testCase.dwellMs)
                #expect(changes.map(\.timestamp) == expectedChanges.map(\.at), "\(quantity) change times")
                #expect(changes.map(\.state) == expectedChanges.map(\.state), "\(quantity) change states")
                #expect(changes.map(\.previous) == expectedChanges.map(\.previous), "\(quantity) previous states")
            }
        }
    }

    /// A planned session handed over through its snapshot at any sample (as a new owner restores
    /// it from the changelog) goes on exactly as the unbroken one: the same target changes and
    /// the same time in target.
    @Test func aPlannedSessionRestoredFromItsSnapshotGoesOnAsTheOriginal() async {
        await propertyCheck(count: 300, input: zip(Self.testCase, Gen.int(in: 0...80))) { testCase, cut in
            let original = Self.play(testCase)
            let restored = Self.play(testCase, handingOverAt: cut)
            #expect(restored.summary?.plan == original.summary?.plan)
            #expect(restored.h.outputs.targetChanges.map(\.change) == original.h.outputs.targetChanges.map(\.change))
        }
    }

    /// The contract read plainly: each sample covers until the next (at most the maximum gap),
    /// each covered millisecond counts for the step it falls in, at the sample's status there.
    struct Reference {
        let plan: WorkoutPlan
        let quantity: Quantity
        let configuration: ZoneConfiguration?
        let maxGapMs: Int64

        func status(step: Int, value: Double) -> TargetStatus? {
            guard let target = plan.steps[step].targets[quantity] else { return nil }
            let zone = configuration?.zoneIndex(of: value) ?? -1
            return target.status(of: value, zone: zone, zoneCount: configuration?.zoneCount ?? 0)
        }

        func step(at timestamp: Int64) -> Int? {
            plan.steps.indices.first { plan.start(ofStep: $0) <= timestamp && timestamp < plan.end(ofStep: $0) }
        }

        func milliseconds(samples: [(at: Int64, value: Double)], end: Int64) -> [Int64] {
            var counts = Array(repeating: Int64(0), count: plan.steps.count * 3)
            for (index, sample) in samples.enumerated() {
                let next = index + 1 < samples.count ? samples[index + 1].at : end
                let coverageEnd = min(next, sample.at + maxGapMs)
                for step in plan.steps.indices {
                    let overlap = min(coverageEnd, plan.end(ofStep: step)) - max(sample.at, plan.start(ofStep: step))
                    guard overlap > 0, let status = status(step: step, value: sample.value) else { continue }
                    counts[step * 3 + Int(status.rawValue)] += overlap
                }
            }
            return counts
        }

        func changes(samples: [(at: Int64, value: Double)], dwellMs: Int64)
            -> [(at: Int64, state: TargetChange.State, previous: TargetChange.State?)]
        {
            var published: TargetChange.State?
            var candidate: (state: TargetChange.State, since: Int64)?
            var changes: [(at: Int64, state: TargetChange.State, previous: TargetChange.State?)] = []
            for sample in samples {
                guard let step = step(at: sample.at), let status = status(step: step, value: sample.value) else {
                    continue
                }
                let state = TargetChange.State(step: step, status: status)
                if candidate?.state != state { candidate = (state, sample.at) }
                if state != published, let candidate, sample.at - candidate.since >= dwellMs {
                    changes.append((sample.at, state, published))
                    published = state
                }
            }
            return changes
        }
    }
}

import PropertyBased
import Testing
import ZoneEngine
import ZoneTestSupport

/// Invariants of the accumulator over generated sessions.
@Suite struct EngineProperties {
    /// A generated step: a sample (quantity, offset seconds, value) or a control event.
    enum Step: Sendable, CustomStringConvertible {
        case heartRate(Int, Double)
        case power(Int, Double)
        case pause(Int)
        case resume(Int)
        case activity(Int)

        var description: String {
            switch self {
            case .heartRate(let t, let v): "hr(\(v)@\(t))"
            case .power(let t, let v): "power(\(v)@\(t))"
            case .pause(let t): "pause@\(t)"
            case .resume(let t): "resume@\(t)"
            case .activity(let t): "activity@\(t)"
            }
        }
    }

    static let step = Gen.oneOf(
        zip(Gen.int(in: 0...600), Gen.int(in: 60...200)).map { Step.heartRate($0, Double($1)) },
        zip(Gen.int(in: 0...600), Gen.int(in: 0...400)).map { Step.power($0, Double($1)) },
        Gen.int(in: 0...600).map { Step.pause($0) },
        Gen.int(in: 0...600).map { Step.resume($0) },
        Gen.int(in: 0...600).map { Step.activity($0) })

    static func run(_ steps: [Step], repeatEach: Bool = false, settings: EngineSettings = EngineSettings())
        -> (EngineHarness, WorkoutSummary?)
    {
        var h = EngineHarness(settings: settings)
        h.profiles["p"] = PersonProfile(person: "p", age: 40, functionalThresholdPower: 220)
        h.start(person: "p")
        for step in steps {
            for _ in 0..<(repeatEach ? 2 : 1) { apply(step, to: &h) }
        }
        return (h, finish(&h))
    }

    /// Sends one generated step (times are tenths of a second).
    static func apply(_ step: Step, to h: inout EngineHarness) {
        switch step {
        case .heartRate(let t, let v): h.hr(v, at: Double(t) / 10)
        case .power(let t, let v): h.power(v, at: Double(t) / 10)
        case .pause(let t): h.send(.pause, at: Double(t) / 10)
        case .resume(let t): h.send(.resume, at: Double(t) / 10)
        case .activity(let t): h.send(.activityStart("a\(t)"), at: Double(t) / 10)
        }
    }

    /// Ends it 1.5 s after its latest time and returns the summary.
    static func finish(_ h: inout EngineHarness) -> WorkoutSummary? {
        let end = max(h.live?.latestTimestamp ?? EngineHarness.origin, h.live?.newestHeldTimestamp ?? .min)
        h.send(.sessionEnd, at: Double(end - EngineHarness.origin) / 1000 + 1.5)
        return h.outputs.finished.last
    }

    @Test func zoneDurationsPlusUntrackedEqualTheActiveSpan() async {
        await propertyCheck(count: 300, input: Self.step.array(of: 0...40)) { steps in
            let (_, summary) = Self.run(steps)
            guard let summary else {
                Issue.record("no summary")
                return
            }
            let active = summary.durationMs - summary.pausedMs
            for group in summary.zoneGroups {
                #expect(summary.accountedMs(group.configuration.quantity) == active)
            }
            for untracked in summary.untrackedMs { #expect(untracked.milliseconds >= 0) }
        }
    }

    @Test func activityDurationsNeverExceedTheWorkouts() async {
        await propertyCheck(count: 200, input: Self.step.array(of: 0...40)) { steps in
            guard let summary = Self.run(steps).1 else { return }
            for (index, group) in summary.zoneGroups.enumerated() {
                let perActivity = summary.activities.map { $0.zoneGroups[index].zoneDurations.reduce(0, +) }
                #expect(perActivity.reduce(0, +) <= group.zoneDurations.reduce(0, +))
            }
        }
    }

    @Test func feedingEverySampleTwiceChangesNothingButTheDuplicateCount() async {
        let samples = Gen.oneOf(
            zip(Gen.int(in: 0...600), Gen.int(in: 60...200)).map { Step.heartRate($0, Double($1)) },
            zip(Gen.int(in: 0...600), Gen.int(in: 0...400)).map { Step.power($0, Double($1)) })
        await propertyCheck(count: 300, input: samples.array(of: 1...40)) { steps in
            let once = Self.run(steps)
            let twice = Self.run(steps, repeatEach: true)
            guard let a = once.1, let b = twice.1 else {
                Issue.record("no summary")
                return
            }
            #expect(a.zoneGroups == b.zoneGroups)
            #expect(a.statistics == b.statistics)
            // Each second copy repeats its first: accepted -> duplicate, duplicate -> duplicate, late -> late.
            #expect(b.lateSamples == 2 * a.lateSamples)
            #expect(b.duplicateSamples == 2 * a.duplicateSamples + a.statistics.reduce(0) { $0 + $1.samples })
            #expect(once.0.outputs.zoneChanges.map(\.change) == twice.0.outputs.zoneChanges.map(\.change))
        }
    }

    @Test func aSeriesEqualsItsSingleSamples() async {
        let input = zip(
            Gen.int(in: 0...5000), Gen.int(in: 1...20_000), Gen.int(in: 40...220).array(of: 1...60))
        await propertyCheck(count: 200, input: input) { start, interval, values in
            var series = EngineHarness()
            series.start()
            series.send(
                .sampleSeries(.heartRate, intervalMs: Int64(interval), values: values.map(Double.init), person: nil),
                atMs: EngineHarness.origin + Int64(start))
            var single = EngineHarness()
            single.start()
            for (index, value) in values.enumerated() {
                single.send(
                    .sample(.heartRate, value: Double(value), person: nil),
                    atMs: EngineHarness.origin + Int64(start + index * interval))
            }
            let end = EngineHarness.origin + Int64(start + values.count * interval + 3000)
            series.send(.sessionEnd, atMs: end)
            single.send(.sessionEnd, atMs: end)
            #expect(series.outputs.finished.count == 1)
            #expect(series.outputs.finished == single.outputs.finished)
            #expect(series.outputs.zoneChanges.map(\.change) == single.outputs.zoneChanges.map(\.change))
        }
    }
}

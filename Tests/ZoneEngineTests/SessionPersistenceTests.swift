import PropertyBased
import Testing
import ZoneEngine
import ZoneTestSupport

/// Snapshots (the changelog's payload), change tracking, the reorder window and the
/// live-session cap.
@Suite struct SessionPersistenceTests {
    /// Moves every live session of `h` into a fresh store through snapshot bytes, as a new
    /// owner restoring from the changelog would.
    static func handOver(_ h: inout EngineHarness) throws {
        var restored = SessionStore(settings: h.store.settings)
        // As a restore reads them: the sessions of one plan share its instance.
        let plans = PlanInterner()
        for session in h.store.drainChanges().updated {
            let bytes = session.snapshot()
            restored.restore(try bytes.withUnsafeBytes { try WorkoutSession(snapshot: $0, plans: plans) })
        }
        for (id, finished) in h.store.finishedAt { restored.restoreFinished(id, wallMs: finished) }
        h.store = restored
    }

    @Test func aSessionRestoredFromItsSnapshotGoesOnExactlyAsTheOriginal() async {
        let input = zip(EngineProperties.step.array(of: 0...40), Gen.int(in: 0...40))
        await propertyCheck(count: 200, input: input) { steps, cut in
            let (original, expected) = EngineProperties.run(steps)
            var h = EngineHarness()
            h.profiles["p"] = PersonProfile(person: "p", age: 40, functionalThresholdPower: 220)
            h.start(person: "p")
            let split = min(cut, steps.count)
            for step in steps[..<split] { EngineProperties.apply(step, to: &h) }
            do { try Self.handOver(&h) } catch { Issue.record("restore failed: \(error)") }
            for step in steps[split...] { EngineProperties.apply(step, to: &h) }
            let summary = EngineProperties.finish(&h)
            #expect(summary == expected)
            #expect(h.outputs.zoneChanges.map(\.change) == original.outputs.zoneChanges.map(\.change))
            #expect(h.outputs.zoneChanges.map(\.configuration) == original.outputs.zoneChanges.map(\.configuration))
        }
    }

    @Test func heldSamplesSurviveTheSnapshotToo() throws {
        var h = EngineHarness(settings: EngineSettings(reorderWindowMs: 5_000))
        h.start()
        h.hr(120, at: 3)
        h.hr(110, at: 1)
        #expect(h.live?.heldSampleCount == 2)
        try Self.handOver(&h)
        #expect(h.live?.heldSampleCount == 2)
        h.hr(130, at: 9)
        #expect(h.live?.heldSampleCount == 1)
    }

    @Test func truncatedOrCorruptSnapshotsAreRefusedWithAnError() {
        var h = EngineHarness()
        h.start(person: "p")
        h.hr(120, at: 1)
        h.send(.activityStart("run"), at: 2)
        h.send(.pause, at: 3)
        let bytes = h.live!.snapshot()
        for length in 0..<bytes.count {
            #expect(throws: SnapshotError.self) {
                try Array(bytes[..<length]).withUnsafeBytes { try WorkoutSession(snapshot: $0) }
            }
        }
        var wrongVersion = bytes
        wrongVersion[0] = 99
        #expect(throws: SnapshotError.self) { try wrongVersion.withUnsafeBytes { try WorkoutSession(snapshot: $0) } }
        #expect(throws: SnapshotError.self) { try (bytes + [0]).withUnsafeBytes { try WorkoutSession(snapshot: $0) } }
    }

    @Test func drainingReportsChangedFinishedAndForgottenSessionsOnce() {
        var h = EngineHarness(settings: EngineSettings(finishedRetentionMs: 10_000))
        h.start()
        h.send(.sample(.heartRate, value: 120, person: nil), at: 1, session: "s2")
        var changes = h.store.drainChanges()
        #expect(Set(changes.updated.map(\.id)) == ["s1", "s2"])
        #expect(h.store.drainChanges().updated.isEmpty)

        h.wallMs = 1_000
        h.end(at: 5)
        changes = h.store.drainChanges()
        #expect(changes.updated.isEmpty)
        #expect(changes.finished.map(\.id) == ["s1"])
        #expect(changes.finished.first?.wallMs == 1_000)

        h.expire(wallMs: 11_000)
        changes = h.store.drainChanges()
        #expect(changes.forgotten == ["s1"])
    }

    @Test func theReorderWindowSortsSamplesBeforeTheyAreApplied() throws {
        let zones = PerQuantity<ZoneConfiguration?>(
            heartRate: try ZoneConfiguration.validated(quantity: .heartRate, source: .app, boundaries: [100, 140]),
            cyclingPower: nil)
        func run(_ order: [(Double, Double)], window: Int64) -> (WorkoutSummary?, Int) {
            var h = EngineHarness(settings: EngineSettings(reorderWindowMs: window))
            h.start(zones: zones)
            for (at, value) in order { h.hr(value, at: at) }
            return (h.end(at: 20), h.outputs.zoneChanges.count)
        }
        let sorted = [(1.0, 90.0), (2.0, 120.0), (3.0, 150.0), (4.0, 120.0)]
        let shuffled = [(2.0, 120.0), (1.0, 90.0), (4.0, 120.0), (3.0, 150.0)]
        let inOrder = run(sorted, window: 0)
        let reordered = run(shuffled, window: 2_000)
        #expect(reordered.0 == inOrder.0)
        #expect(reordered.1 == inOrder.1)
        #expect(reordered.0?.lateSamples == 0)
        // Without the window, the same arrival order loses two samples as late.
        #expect(run(shuffled, window: 0).0?.lateSamples == 2)
    }

    @Test func aSampleOlderThanTheWindowIsStillLate() {
        var h = EngineHarness(settings: EngineSettings(reorderWindowMs: 1_000))
        h.start()
        h.hr(120, at: 10)
        h.hr(121, at: 12)
        h.hr(110, at: 5)
        #expect(h.end(at: 20)?.lateSamples == 1)
    }

    @Test func heldSamplesAfterTheEndCountLateAndControlEventsApplyEarlierOnesFirst() {
        var h = EngineHarness(settings: EngineSettings(reorderWindowMs: 10_000))
        h.start()
        h.hr(120, at: 1)
        h.hr(130, at: 6)
        h.send(.pause, at: 5)
        // The sample at 1 s is applied before the pause; the one at 6 s falls in it.
        #expect(h.live?.heldSampleCount == 1)
        h.send(.resume, at: 8)
        h.hr(140, at: 30)
        let summary = h.end(at: 9)
        #expect(summary?.pausedSamples == 1)
        #expect(summary?.lateSamples == 1)
        #expect(summary?.statistics.first?.samples == 1)
    }

    @Test func aNewSessionOverTheCapIsDeadLetteredAndStartsNothing() {
        var store = SessionStore()
        var outputs = EngineOutputs()
        var admitted = 0
        // The caller's caps: two sessions. The engine asks only for a record that starts one.
        func send(_ event: WorkoutEvent) {
            guard let query = store.handle(event, wallMs: 0, outputs: &outputs) else { return }
            #expect(query.startsSession)
            store.handle(event, wallMs: 0, answers: TableAnswers(admitted: admitted < 2), outputs: &outputs)
            admitted = min(2, admitted + 1)
        }
        for id in ["a", "b", "c"] {
            send(WorkoutEvent(session: id, timestamp: 1_000, body: .sample(.heartRate, value: 120, person: nil)))
        }
        #expect(store.liveCount == 2)
        #expect(outputs.rejections.map(\.reason) == [.sessionLimit])
        // A live session's events are never refused by the cap, and ask nothing.
        let live = WorkoutEvent(session: "a", timestamp: 2_000, body: .sample(.heartRate, value: 121, person: nil))
        #expect(store.handle(live, wallMs: 0, outputs: &outputs) == nil)
        #expect(outputs.rejections.count == 1)
    }
}

import Testing
import ZoneEngine

/// A decoded event is copied several times per record on the worker's path (decoder result,
/// store, session): it must stay small. A `session_start`'s request, with both quantities'
/// inline zone boundaries, is boxed so that a sample's event is not as large as it.
@Suite struct WorkoutEventLayoutTests {
    @Test func anEventIsSmallWhateverItsBody() {
        #expect(MemoryLayout<SessionStartRequest>.size > 128)
        #expect(MemoryLayout<WorkoutEvent>.size <= 80)
    }

    @Test func aBoxedStartRequestReadsBackAsItWasMade() throws {
        let zones = try ZoneConfiguration.validated(quantity: .heartRate, source: .app, boundaries: [100, 120, 140])
        let request = SessionStartRequest(
            person: "lena", activity: "running", zones: PerQuantity(heartRate: zones, cyclingPower: nil))
        let event = WorkoutEvent(session: "s", timestamp: 1, body: .sessionStart(request))
        guard case .sessionStart(let read) = event.body else {
            Issue.record("not a session start")
            return
        }
        #expect(read == request)
        #expect(event == WorkoutEvent(session: "s", timestamp: 1, body: .sessionStart(request)))
    }
}

import Testing
import ZoneEngine

/// The output buffer a worker lends to the engine record after record: it grows to the most
/// outputs a record produced, keeps that storage when emptied, and each record reads only its
/// own outputs and their sessions.
@Suite struct EngineOutputsTests {
    @Test func aReusedBufferHoldsOnlyTheLastRecordsOutputs() {
        var store = SessionStore(settings: EngineSettings(idleTimeoutMs: 1000, reorderWindowMs: 60_000))
        var outputs = EngineOutputs()
        let origin: Int64 = 1_717_200_000_000
        func send(_ session: String, _ body: WorkoutEvent.Body, at seconds: Int64, outputs: inout EngineOutputs) {
            let event = WorkoutEvent(session: session, timestamp: origin + seconds * 1000, body: body)
            store.handle(event, wallMs: 0, profiles: [:], outputs: &outputs)
        }
        for session in ["a", "b"] {
            send(session, .sessionStart(SessionStartRequest(person: "p-\(session)")), at: 0, outputs: &outputs)
        }
        // Held by the reorder window: ten zone changes per session, none out yet.
        for second in 1...20 {
            for session in ["a", "b"] {
                send(
                    session, .sample(.heartRate, value: second % 2 == 0 ? 100 : 170, person: nil), at: Int64(second),
                    outputs: &outputs)
            }
        }
        var produced = !outputs.isEmpty
        #expect(!produced)

        // One sweep releases both sessions' held samples and finishes them: more outputs than
        // the buffer first holds, of two sessions.
        store.expire(wallMs: 2000, outputs: &outputs)
        #expect(outputs.zoneChanges.count == 40)
        #expect(outputs.finished.map(\.session).sorted() == ["a", "b"])
        var people: [String?] = []
        for index in outputs.zoneChanges.indices {
            people.append(outputs.zoneChanges[index].session.person)
        }
        #expect(people == Array(repeating: "p-a", count: 20) + Array(repeating: "p-b", count: 20))

        outputs.removeAll()
        produced = !outputs.isEmpty
        #expect(!produced)
        send("c", .sessionStart(SessionStartRequest()), at: 30, outputs: &outputs)
        send("c", .sample(.heartRate, value: 100, person: nil), at: 31, outputs: &outputs)
        #expect(outputs.zoneChanges.count == 0)
        outputs.removeAll()
        store.expire(wallMs: 100_000, outputs: &outputs)
        #expect(outputs.zoneChanges.count == 1)
        #expect(outputs.zoneChanges[0].change.currentZone == 1)
        #expect(outputs.zoneChanges[0].session.session == "c")
        #expect(outputs.zoneChanges[0].session.person == nil)
    }
}

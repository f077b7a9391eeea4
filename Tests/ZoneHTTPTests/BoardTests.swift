import Testing
import ZoneEngine
@testable import ZoneHTTP
@testable import ZoneProcessor

/// The gym board's change tracking and its cap on open streams.
@Suite struct BoardTests {
    static func session(_ id: String) -> WorkoutSession {
        WorkoutSession(
            id: id, startTimestamp: 0, person: nil, activity: nil,
            appZones: PerQuantity(
                heartRate: try? ZoneConfiguration.validated(quantity: .heartRate, source: .app, boundaries: [100, 140]),
                cyclingPower: nil),
            profile: nil)
    }

    @Test func boardSendsOnlyWhatChanged() {
        func entry(_ id: String, revision: UInt64) -> LiveSessionEntry {
            var session = Self.session(id)
            _ = session.applySample(.heartRate, at: 1000, value: 120, settings: .init())
            return LiveSessionEntry(state: session.liveState, revision: revision, partition: 0)
        }
        var tracker = BoardChangeTracker()
        let first = tracker.changes(to: [entry("a", revision: 1), entry("b", revision: 1)])
        #expect(first.sessions.map(\.session).sorted() == ["a", "b"] && first.removed.isEmpty)
        let same = tracker.changes(to: [entry("a", revision: 1), entry("b", revision: 1)])
        #expect(same.sessions.isEmpty && same.removed.isEmpty)
        let next = tracker.changes(to: [entry("a", revision: 2), entry("c", revision: 2)])
        #expect(next.sessions.map(\.session).sorted() == ["a", "c"])
        #expect(next.removed == ["b"])
        let shown = BoardChangeTracker.select(
            [entry("gym1/x", revision: 1), entry("gym2/y", revision: 1), entry("gym1/a", revision: 1)],
            prefix: "gym1/", limit: 1)
        #expect(shown.map(\.state.session) == ["gym1/a"])
    }

    @Test func boardStreamsAreCapped() {
        let clients = BoardClients()
        #expect(clients.tryOpen(limit: 2) && clients.tryOpen(limit: 2))
        #expect(!clients.tryOpen(limit: 2), "a third stream is refused")
        clients.close()
        #expect(clients.tryOpen(limit: 2), "a closed stream makes room")
    }
}

import Foundation
import NIOCore
import Testing
import ZoneCodecs
import ZoneEngine

@testable import ZoneHTTP
@testable import ZoneProcessor

/// The gym board's change tracking and its cap on open streams.
@Suite struct BoardTests {
    static func session(_ id: String) -> WorkoutSession {
        WorkoutSession(
            id: id, startTimestamp: 0, person: nil, activity: nil,
            appZones: PerQuantity(
                heartRate: try? ZoneConfiguration.validated(
                    quantity: .heartRate, source: .app, boundaries: [100, 140]),
                cyclingPower: nil),
            profile: nil)
    }

    static func entry(_ id: String, revision: UInt64) -> LiveSessionEntry {
        var session = Self.session(id)
        _ = session.applySample(.heartRate, at: 1000, value: 120, settings: .init())
        return LiveSessionEntry(state: session.liveState(profile: nil), revision: revision, partition: 0, takenAtMs: 0)
    }

    @Test func boardSendsOnlyWhatChanged() {
        func tiles(_ entries: [LiveSessionEntry]) -> ArraySlice<BoardFeed.Tile> {
            BoardFeed.refreshed([], with: entries)[...]
        }
        var tracker = BoardChangeTracker()
        let first = tracker.changes(to: tiles([Self.entry("a", revision: 1), Self.entry("b", revision: 1)]))
        #expect(first.sessions.map(\.session) == ["a", "b"] && first.removed.isEmpty)
        let same = tracker.changes(to: tiles([Self.entry("a", revision: 1), Self.entry("b", revision: 1)]))
        #expect(same.sessions.isEmpty && same.removed.isEmpty)
        let next = tracker.changes(to: tiles([Self.entry("a", revision: 2), Self.entry("c", revision: 2)]))
        #expect(next.sessions.map(\.session) == ["a", "c"])
        #expect(next.removed == ["b"])
        let shown = BoardChangeTracker.select(
            BoardFeed.refreshed(
                [],
                with: [
                    Self.entry("gym1/x", revision: 1), Self.entry("gym2/y", revision: 1),
                    Self.entry("gym1/a", revision: 1),
                ]),
            prefix: "gym1/", limit: 1)
        #expect(shown.map(\.session) == ["gym1/a"])
    }

    /// `/board?class=` shows one class's sessions, with or without a prefix.
    @Test func aBoardCanShowOneClass() {
        func entry(_ id: String, class sessionClass: String?) -> LiveSessionEntry {
            var session = WorkoutSession(
                id: id, startTimestamp: 0, person: nil, activity: "cycling", sessionClass: sessionClass, profile: nil)
            _ = session.applySample(.heartRate, at: 1000, value: 120, settings: .init())
            return LiveSessionEntry(state: session.liveState(profile: nil), revision: 1, partition: 0, takenAtMs: 0)
        }
        let tiles = BoardFeed.refreshed(
            [],
            with: [
                entry("gym1/a", class: "spin-0700"), entry("gym1/b", class: "yoga-0800"),
                entry("gym2/c", class: "spin-0700"),
                entry("gym1/d", class: nil),
            ])
        #expect(
            BoardChangeTracker.select(tiles, prefix: "", sessionClass: "spin-0700", limit: 10).map(\.session) == [
                "gym1/a", "gym2/c",
            ])
        #expect(
            BoardChangeTracker.select(tiles, prefix: "gym1/", sessionClass: "spin-0700", limit: 10).map(\.session) == [
                "gym1/a"
            ])
        #expect(BoardChangeTracker.select(tiles, prefix: "", limit: 10).count == 4)
    }

    /// The feed encodes a session once per revision and keeps the list sorted by id.
    @Test func feedReusesTheJSONOfUnchangedSessions() {
        let first = BoardFeed.refreshed([], with: [Self.entry("b", revision: 1), Self.entry("a", revision: 1)])
        #expect(first.map(\.session) == ["a", "b"])
        let decoded = try? JSONSerialization.jsonObject(with: Data(first[0].json)) as? [String: Any]
        #expect(decoded?["session"] as? String == "a")
        // A tile with a stale JSON but the same revision stays as it was: it was not encoded again.
        let marked = [
            BoardFeed.Tile(session: "a", person: nil, sessionClass: nil, revision: 1, json: Array("marker".utf8)),
            first[1],
        ]
        let second = BoardFeed.refreshed(marked, with: [Self.entry("a", revision: 1), Self.entry("b", revision: 2)])
        #expect(second[0].json == Array("marker".utf8))
        #expect(second[1].revision == 2 && second[1].session == "b")
    }

    /// A tile carries the person's maximum heart rate and the current share of it.
    @Test func tileShowsPercentOfMaximumHeartRate() throws {
        var session = Self.session("a")
        _ = session.applySample(.heartRate, at: 1000, value: 150, settings: .init())
        let state = session.liveState(profile: PersonProfile(person: "p", maximumHeartRate: 200))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(OutputEncoder.liveSession(state))) as? [String: Any])
        #expect(object["max_hr"] as? Double == 200)
        #expect(object["percent_max_hr"] as? Int == 75)
        let unknown = try #require(
            try JSONSerialization.jsonObject(with: Data(OutputEncoder.liveSession(session.liveState(profile: nil))))
                as? [String: Any])
        #expect(unknown["max_hr"] is NSNull && unknown["percent_max_hr"] is NSNull)
    }

    /// The headline number is the quantity the member's zones are computed from: % of heart-rate
    /// reserve for Karvonen zones (a resting rate in the profile), % of max otherwise, % of FTP
    /// for power. Side by side, a Karvonen member and a %max member in the same zone read the
    /// same band of their own basis, so the number and the zone never contradict.
    @Test func theHeadlineIsTheBasisOfTheMembersZones() throws {
        let karvonen = PersonProfile(
            person: "k", restingHeartRate: 60, maximumHeartRate: 200, functionalThresholdPower: 250)
        let byMaximum = PersonProfile(person: "m", maximumHeartRate: 200)
        func tile(_ profile: PersonProfile, heartRate: Double, power: Double? = nil) throws -> [String: Any] {
            var session = WorkoutSession(
                id: profile.person, startTimestamp: 0, person: profile.person, activity: "cycling", profile: profile)
            _ = session.applySample(.heartRate, at: 1000, value: heartRate, settings: .init())
            if let power { _ = session.applySample(.cyclingPower, at: 1000, value: power, settings: .init()) }
            return try #require(
                try JSONSerialization.jsonObject(
                    with: Data(OutputEncoder.liveSession(session.liveState(profile: profile))))
                    as? [String: Any])
        }
        func zone(_ object: [String: Any]) -> Int? {
            let groups = object["zone_groups"] as? [String: Any]
            let heartRate = groups?["heart_rate"] as? [String: Any]
            return (heartRate?["current_zone"] as? [String: Any])?["index"] as? Int
        }
        // Zones 1-5 start at 60, 70, 80 and 90% of the basis: each zone's middle reads inside it.
        for (percent, expectedZone) in [(55, 1), (65, 2), (75, 3), (85, 4), (95, 5)] {
            let reserve = try tile(karvonen, heartRate: 60 + Double(percent) / 100 * 140)
            #expect(reserve["percent_hrr"] as? Int == percent && zone(reserve) == expectedZone, "\(reserve)")
            let maximum = try tile(byMaximum, heartRate: Double(percent) / 100 * 200)
            #expect(maximum["percent_max_hr"] as? Int == percent && zone(maximum) == expectedZone, "\(maximum)")
            #expect(maximum["percent_hrr"] is NSNull, "no reserve without Karvonen zones")
        }
        let rider = try tile(karvonen, heartRate: 150, power: 200)
        #expect(rider["percent_ftp"] as? Int == 80)
    }

    /// A period's changes go out in messages of at most `tilesPerMessage` sessions, each one
    /// JSON object, all but the last marked `more`; removed ids go in the first.
    @Test func largeUpdatesAreSplitIntoBoundedMessages() throws {
        let count = BoardEventStream.tilesPerMessage * 2 + 7
        let tiles = BoardFeed.refreshed(
            [], with: (0..<count).map { Self.entry(String(format: "s%05d", $0), revision: 1) })
        let messages = BoardEventStream.messageStarts(count: tiles.count).map {
            BoardEventStream.message(sessions: tiles, from: $0, removed: ["gone-1", "gone-2"])
        }
        #expect(messages.count == 3)
        var seen: [String] = []
        for (index, buffer) in messages.enumerated() {
            let text = String(buffer: buffer)
            #expect(text.hasPrefix("data: ") && text.hasSuffix("\n\n"))
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(text.dropFirst(6).dropLast(2).utf8)) as? [String: Any])
            let sessions = try #require(object["sessions"] as? [[String: Any]])
            #expect(sessions.count <= BoardEventStream.tilesPerMessage)
            seen += sessions.compactMap { $0["session"] as? String }
            #expect(object["more"] as? Bool == (index < 2))
            #expect(object["removed"] as? [String] == (index == 0 ? ["gone-1", "gone-2"] : []))
        }
        #expect(seen == tiles.map(\.session))
        let empty = BoardEventStream.messageStarts(count: 0).map {
            BoardEventStream.message(sessions: [], from: $0, removed: ["x"])
        }
        #expect(
            empty.count == 1
                && String(buffer: empty[0]) == #"data: {"sessions":[],"removed":["x"],"more":false}"# + "\n\n")
    }

    @Test func boardStreamsAreCapped() {
        let clients = BoardClients()
        #expect(clients.tryOpen(limit: 2) && clients.tryOpen(limit: 2))
        #expect(!clients.tryOpen(limit: 2), "a third stream is refused")
        clients.close()
        #expect(clients.tryOpen(limit: 2), "a closed stream makes room")
    }
}

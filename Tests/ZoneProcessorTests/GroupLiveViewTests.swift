import Foundation
import Testing
import ZoneHTTP
import ZoneHarness
import ZoneTestSupport

/// Group-wide views: three instances of one group, load-generator traffic, and every live
/// session answered by every instance's `/sessions/{id}` and shown on its board (each owns
/// about a third of them);
/// after a SIGKILL of one instance its sessions are still answered by the others, and their
/// state moves on again once the new owners have restored them.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct GroupLiveViewTests {
    static let members = 24

    static func liveSession(_ port: Int, _ id: String) -> [String: Any]? {
        guard let response = try? LoopbackHTTPClient.get(port: port, path: "/sessions/\(id)"), response.status == 200
        else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any]
    }

    /// Waits until every instance in `ports` answers every session; returns the ids missing.
    static func missing(ports: [Int], ids: [String], seconds: Double) -> [String] {
        var missing: [String] = []
        Eventually.holds(within: seconds, poll: 0.5) {
            missing = ports.flatMap { port in ids.filter { liveSession(port, $0) == nil }.map { "\($0)@\(port)" } }
            return missing.isEmpty
        }
        return missing
    }

    @Test func everyInstanceAnswersForEveryLiveSession() throws {
        let broker = try BrokerProcess(partitions: 6)
        defer { broker.stop() }
        let instances = try (0..<3).map { _ in
            try ZoneStreamProcess.testProcessor(bootstrap: broker.bootstrapServers, group: "group-views")
        }
        defer { for instance in instances where instance.isRunning { _ = instance.signal(SIGKILL, waitSeconds: 10) } }
        let ports = try instances.map { try #require($0.httpPort(), "\($0.output.suffix(1500))") }
        // Long sessions at a steady pace, so they stay live through the test.
        let loadgen = try ZoneStreamProcess([
            "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "\(Self.members)",
            "--session-seconds", "3600", "--rate", "300", "--seed", "5",
        ])
        defer { _ = loadgen.signal(SIGKILL, waitSeconds: 10) }
        let ids = (0..<Self.members).map { "lg0-\($0)" }
        let notAnswered = Self.missing(ports: ports, ids: ids, seconds: 60)
        #expect(notAnswered.isEmpty, "not answered: \(notAnswered.prefix(10))")
        // Every board shows every live session: its first frame has a tile for each.
        for port in ports {
            let frame = try LoopbackHTTPClient.firstEventData(port: port, path: "/board/events")
            let tiles = frame.components(separatedBy: #"{"session":""#).count - 1
            #expect(tiles == Self.members, "board on port \(port): \(tiles) tiles")
        }
        // Each instance owns only part of them: the rest come from the group's changelog.
        let owned = instances.map { instance in
            instance.output.split(separator: "\n").last { $0.contains("partitions assigned") }.map(String.init) ?? ""
        }
        #expect(owned.allSatisfy { !$0.isEmpty && !$0.contains("[]") }, "\(owned)")
        print("group views: assignments \(owned.map { $0.suffix(60) })")

        // SIGKILL one instance: the others still answer for its sessions at once, and the
        // sessions' state moves on once their partitions are restored by the survivors.
        let survivors = Array(ports.dropFirst())
        let before = Dictionary(
            uniqueKeysWithValues: ids.compactMap { id in
                Self.liveSession(survivors[0], id).flatMap { $0["latest_ts"] as? Int }.map { (id, $0) }
            })
        #expect(instances[0].signal(SIGKILL, waitSeconds: 10))
        #expect(Self.missing(ports: survivors, ids: ids, seconds: 5).isEmpty)
        var stale = ids
        Eventually.holds(within: 60, poll: 1) {
            stale = ids.filter { id in
                survivors.contains { port in
                    (Self.liveSession(port, id)?["latest_ts"] as? Int ?? 0) <= (before[id] ?? Int.max)
                }
            }
            return stale.isEmpty
        }
        #expect(stale.isEmpty, "sessions whose state did not move on after the SIGKILL: \(stale)")
    }
}

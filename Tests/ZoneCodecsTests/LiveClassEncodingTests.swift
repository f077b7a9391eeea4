import Foundation
import Testing
import ZoneCodecs

/// `/classes/{class}`'s results carry the class summary as published, with each leaderboard
/// person's display name added where the profiles give one, so a board shows names after the
/// class as on its tiles.
struct LiveClassEncodingTests {
    @Test func resultsNameTheLeaderboardsPersons() throws {
        let summary = #"""
            {"schema":1,"type":"class_summary","class":"studio/spin","day":"2026-11-28","workouts":2,
             "leaderboard":[{"session":"s1","person":"ana","points":3.5},{"session":"s2","person":"ben","points":2.0},
                            {"session":"s3","person":null,"points":1.0}]}
            """#
        let body = OutputEncoder.liveClass(
            "studio/spin", plan: nil, members: [], results: Array(summary.utf8),
            name: { $0 == "ana" ? "Ana P." : nil }, nowMs: 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let results = try #require(object["results"] as? [String: Any])
        let leaderboard = try #require(results["leaderboard"] as? [[String: Any]])
        #expect(leaderboard.map { $0["name"] as? String } == ["Ana P.", nil, nil])
        #expect(leaderboard.map { $0["session"] as? String } == ["s1", "s2", "s3"])
        #expect(results["workouts"] as? Int == 2 && results["day"] as? String == "2026-11-28")
    }
}

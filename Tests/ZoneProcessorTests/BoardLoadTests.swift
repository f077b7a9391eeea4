import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// The board at scale, small: `zonestream bench board` with the load generator's class of 300
/// members and 20 boards opened at once, twice, on a processor that sends at most 200 tiles
/// per board. Every board gets its whole first board, capped at 200 tiles, in messages of at
/// most 250 tiles; the full run (10 k sessions, 200 boards) and its figures are in
/// docs/reference/http-endpoint.md. No time is asserted here: the figures are the benchmark's.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct BoardLoadTests {
    @Test func manyBoardsEachGetTheirWholeFirstBoardCappedAtBoardMaxSessions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-board-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try ZoneStreamProcess.runToExit(
            [
                "bench", "board", "--sessions", "300", "--clients", "20", "--board-max-sessions", "200", "--timeout-s",
                "60", "--waves", "2",
                "--results-directory", directory.path,
            ],
            seconds: 400)
        #expect(status == 0, "\(output.suffix(1500))")
        let data = try Data(contentsOf: directory.appendingPathComponent("board.json"))
        let figures = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(figures["liveSessions"] as? Int ?? 0 >= 300)
        let waves = try #require(figures["waves"] as? [[String: Any]])
        #expect(waves.count == 2)
        for wave in waves {
            #expect(wave["clientsWithFullBoard"] as? Int == 20 && wave["clientsRefused"] as? Int == 0, "\(wave)")
            #expect(wave["tilesPerBoardMin"] as? Int == 200 && wave["tilesPerBoardMax"] as? Int == 200, "\(wave)")
            #expect(wave["rssConnectedBytes"] as? Int ?? 0 > 0)
        }
        #expect(figures["rssPeakBytes"] as? Int ?? 0 > 0)
    }
}

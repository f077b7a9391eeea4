import Foundation
import Glibc
import Testing
import ZoneHTTP
import ZoneHarness
import ZoneTestSupport

/// The README's main command: `zonestream demo` runs a class end to end and serves its gym
/// board while the class runs, at the address it prints.
@Suite(.processSuite, .timeLimit(.minutes(10)))
struct DemoTests {
    @Test func theDemoServesTheBoardOfItsClassAndFinishesEveryWorkout() throws {
        let demo = try ZoneStreamProcess([
            "demo", "--members", "8", "--seconds", "120", "--tick-ms", "40", "--http-port", "0", "--exit-after-class",
        ])
        #expect(
            demo.waitForOutput("The class on the gym board: http://127.0.0.1:", seconds: 60),
            "\(demo.output.suffix(800))")
        let line = demo.output.split(separator: "\n").first { $0.contains("The class on the gym board:") } ?? ""
        let port = Int(line.split(separator: ":").last?.prefix { $0.isNumber } ?? "")
        let board = try LoopbackHTTPClient.get(port: try #require(port, "\(line)"), path: "/board")
        #expect(board.status == 200 && board.body.contains("board/events"))
        // A member of the class is live on the group's view while the class runs.
        var live = false
        Eventually.holds(within: 30, poll: 0.1) {
            live = (try? LoopbackHTTPClient.get(port: port ?? 0, path: "/sessions/class-0").status) == 200
            return live || !demo.isRunning
        }
        #expect(live, "class-0 was never live on the endpoint")
        #expect(demo.waitForExit(seconds: 120), "the demo ends with its class")
        #expect(demo.exitStatus == 0, "\(demo.output.suffix(1500))")
        #expect(demo.output.contains("finished workouts: 8 of 8"))
    }

    /// By default the board keeps the class's results once it is over, until the demo is stopped.
    @Test func theBoardStaysUpAfterTheClassUntilStopped() throws {
        let demo = try ZoneStreamProcess([
            "demo", "--members", "4", "--seconds", "30", "--tick-ms", "20", "--http-port", "0",
        ])
        #expect(demo.waitForOutput("The class is over", seconds: 90), "\(demo.output.suffix(800))")
        let line = demo.output.split(separator: "\n").first { $0.contains("The class on the gym board:") } ?? ""
        let port = try #require(Int(line.split(separator: ":").last?.prefix { $0.isNumber } ?? ""), "\(line)")
        #expect(demo.isRunning, "the demo waits to be stopped")
        #expect(try LoopbackHTTPClient.get(port: port, path: "/board").status == 200)
        // The results are where the demo said: each class's address answers with its summary.
        let results = demo.output.split(separator: "\n").filter { $0.hasPrefix("The results of ") }
        #expect(!results.isEmpty, "\(demo.output.prefix(800))")
        for line in results {
            let name = try #require(line.split(separator: "?class=").last.map(String.init), "\(line)")
            #expect(try LoopbackHTTPClient.get(port: port, path: "/board?class=\(name)").status == 200)
            let summary = try LoopbackHTTPClient.get(
                port: port,
                path: "/classes/" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name))
            #expect(
                summary.status == 200 && summary.body.contains("leaderboard"), "\(name): \(summary.body.prefix(300))")
        }
        #expect(demo.signal(SIGTERM))
        #expect(demo.exitStatus == 0, "\(demo.output.suffix(800))")
    }

    /// A busy port is named, with the option to change, before anything starts.
    @Test func aBusyPortIsNamedWithTheOptionToChange() throws {
        let (socket, port) = try FreePort.listeningSocket()
        defer { close(socket) }
        let (status, output) = try ZoneStreamProcess.runToExit(["demo", "--http-port", "\(port)"])
        #expect(status == 78, "\(output)")
        #expect(output.contains("127.0.0.1:\(port)") && output.contains("--http-port"), "\(output)")
        #expect(!output.contains("embedded broker at"), "\(output)")
        #expect(!output.contains("errno"), "\(output)")
    }
}

import Foundation
import Testing
import ZoneBench
import ZoneTestSupport

/// The README's main command: `zonestream demo` runs a class end to end and serves its gym
/// board while the class runs, at the address it prints.
@Suite(.timeLimit(.minutes(10)))
struct DemoTests {
    @Test func theDemoServesTheBoardOfItsClassAndFinishesEveryWorkout() throws {
        let demo = try ZoneStreamProcess([
            "demo", "--members", "8", "--seconds", "120", "--tick-ms", "40", "--http-port", "0",
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
}

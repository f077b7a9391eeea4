import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// `zonestream probe`, the health check of the Docker image and Compose: exit 0 when the local
/// endpoint answers 200 (on /ready, or /health with --live), 1 when it does not answer or is
/// not ready.
@Suite(.processSuite, .timeLimit(.minutes(10)))
struct ProbeCommandTests {
    static func probe(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ZoneStreamProcess.runToExit(["probe"] + arguments, seconds: 20)
    }

    @Test func theProbeFollowsTheEndpointFromUpAndReadyToGone() throws {
        let processor = try ZoneStreamProcess([
            "run", "--embedded", "--http-port", "0", "--set", "log_level=info", "--set",
            "metrics.progress_interval_s=1",
        ])
        defer { processor.signal(SIGKILL) }
        let port = try #require(processor.httpPort(), "\(processor.output.suffix(1000))")

        let live = try Self.probe(["--port", "\(port)", "--live"])
        #expect(live.status == 0 && live.output.contains(#"/health: 200 {"status":"up"}"#), "\(live.output)")
        // Ready once the embedded broker's partitions are assigned and consuming.
        var ready = try Self.probe(["--port", "\(port)"])
        try Eventually.holds(within: 60, poll: 0.2) {
            guard ready.status != 0 && processor.isRunning else { return true }
            #expect(ready.status == 1 && ready.output.contains("/ready: 503"), "\(ready.output)")
            ready = try Self.probe(["--port", "\(port)"])
            return false
        }
        #expect(ready.status == 0 && ready.output.contains(#""ready":true"#), "\(ready.output)")

        // At start the log names the settings file and every setting not at its default; then
        // a progress line per interval.
        #expect(processor.output.contains("settings_file"), "\(processor.output.prefix(2000))")
        #expect(processor.output.contains("metrics.progress_interval_s"), "\(processor.output.prefix(2000))")
        #expect(processor.waitForOutput("] progress", seconds: 10), "\(processor.output.suffix(1000))")
        let progress = processor.output.split(separator: "\n").first { $0.hasSuffix("] progress") } ?? ""
        for field in ["records_per_s", "lag", "live_sessions", "dead_letters"] {
            #expect(progress.contains(field), "\(field) in: \(progress)")
        }

        #expect(processor.signal(SIGTERM), "SIGTERM stops the processor")
        let gone = try Self.probe(["--port", "\(port)", "--live"])
        #expect(gone.status == 1 && gone.output.contains("no answer from 127.0.0.1:\(port)"), "\(gone.output)")
    }

    @Test func theProbeTakesThePortFromTheSettings() throws {
        let port = try FreePort.find()
        let result = try ZoneStreamProcess.runToExit(
            ["probe"], environment: ["ZONESTREAM_HTTP_PORT": "\(port)"], seconds: 20)
        #expect(result.status == 1 && result.output.contains("127.0.0.1:\(port)"), "\(result.output)")
    }
}

import Foundation
import Testing
import ZoneHTTP
import ZoneHarness
import ZoneTestSupport

/// Memory is bounded by the settings: with every memory-sizing setting at the largest value
/// allowed (64 workers, batches of 100,000, 64 embedded partitions per topic, 10 million live
/// sessions allowed, 100,000 board tiles, 10,000 board streams, a 60 s reorder window), a
/// gym's traffic keeps the process's peak RSS under the bound stated in docs/explanation/guarantees.md.
@Suite(.processSuite(.heavy), .serialized, .timeLimit(.minutes(10)))
struct MemoryBoundTests {
    static let boundKilobytes = 512 * 1024

    static func peakRSSKilobytes(pid: Int32) -> Int? {
        let peak = ProcessMemory.residentBytes(pid: pid).peak
        return peak > 0 ? peak / 1024 : nil
    }

    @Test func theLargestAllowedSettingsStayUnderTheStatedBound() throws {
        let processor = try ZoneStreamProcess([
            "run", "--embedded", "--http-port", "0", "--set", "workers=64", "--set", "batch_size=100000", "--set",
            "embedded.partitions=64",
            "--set", "max_live_sessions=10000000", "--set", "http.board_max_sessions=100000",
            "--set", "http.max_board_clients=10000", "--set", "reorder_window_ms=60000", "--set",
            "commit_interval_ms=200",
        ])
        #expect(processor.waitForOutput("partitions assigned", seconds: 60), "\(processor.output.suffix(800))")
        // On the embedded broker, /ready and the metrics say so: it keeps nothing.
        if let port = processor.httpPort() {
            #expect(
                try LoopbackHTTPClient.get(port: port, path: "/ready").body.contains(
                    #""broker":"embedded, not for production""#))
            #expect(
                try LoopbackHTTPClient.get(port: port, path: "/metrics").body.contains("zonestream_embedded_broker 1"))
        }
        let line = processor.output.split(separator: "\n").first { $0.contains("embedded broker started") } ?? ""
        let bootstrap =
            line.split(separator: " ").first { $0.hasPrefix("bootstrap=") }.map { String($0.dropFirst(10)) } ?? ""
        #expect(!bootstrap.isEmpty)
        let loadgen = try ZoneStreamProcess([
            "loadgen", "--bootstrap-servers", bootstrap, "--members", "1000", "--session-seconds", "120", "--rate",
            "30000",
            // With these settings (a 60 s reorder window, 64 workers on two cores) the outputs
            // settled about a minute after the last record on a slow machine, more beside other
            // suites.
            "--prefix", "memory", "--check", "--check-timeout-s", "240", "--profile-settle-ms", "300",
        ])
        #expect(loadgen.waitForExit(seconds: 300), "loadgen finished")
        #expect(loadgen.exitStatus == 0, "\(loadgen.output.suffix(800))")
        let peak = try #require(
            Self.peakRSSKilobytes(pid: processor.pid),
            "the processor is gone (running: \(processor.isRunning)): \(processor.output.suffix(3000))")
        #expect(peak < Self.boundKilobytes, "peak RSS \(peak / 1024) MB")
        print(
            "largest settings, 1000 members (~180k records): peak RSS \(peak / 1024) MB (bound \(Self.boundKilobytes / 1024) MB)"
        )
        #expect(processor.signal(SIGTERM, waitSeconds: 20))
    }
}

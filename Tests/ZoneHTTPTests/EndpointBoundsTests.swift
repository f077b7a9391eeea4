import Foundation
import Testing
import ZoneHTTP
import ZoneHarness
import ZoneTestSupport

/// The operator's endpoint against clients it should not trust: members' data behind the
/// access token (probes and scrapers left open), and thousands of clients that connect and
/// never finish a request, which must neither stop `/health` nor grow the process's memory.
@Suite(.processSuite(.heavy), .serialized, .timeLimit(.minutes(10)))
struct EndpointBoundsTests {
    static let token = "wall-screen-7f3a"

    @Test func membersDataNeedsTheTokenWhileProbesAndScrapersDoNot() throws {
        let process = try ZoneStreamProcess([
            "run", "--http-port", "0", "--embedded",
            "--set", "http.token=\(Self.token)",
        ])
        defer { process.signal(SIGKILL) }
        let port = try #require(
            process.httpPort(), "the endpoint never started listening: \(process.output.suffix(800))")
        func get(_ path: String, _ headers: [String: String] = [:]) throws -> LoopbackHTTPClient.Response {
            try LoopbackHTTPClient.get(port: port, path: path, headers: headers)
        }
        #expect(try get("/health").status == 200)
        #expect(try get("/metrics").status == 200)
        #expect(try get("/ready").status != 401)
        for path in ["/sessions/s1", "/people/p1", "/board", "/board/events"] {
            let refused = try get(path)
            #expect(refused.status == 401, "\(path) without the token")
            #expect(refused.headers["www-authenticate"] == "Bearer", "\(path): \(refused.headers)")
            #expect(
                try get(path, ["Authorization": "Bearer not-the-token"]).status == 401, "\(path) with a wrong token")
        }
        // A browser opening the board without the token gets a page to give it on (still a 401,
        // with nothing of any member), keeping the class it asked for, safely escaped.
        let signIn = try get("/board?class=%22%3E%3Cscript%3E", ["Accept": "text/html,application/xhtml+xml"])
        #expect(signIn.status == 401 && signIn.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(signIn.body.contains(#"name="token""#) && signIn.body.contains(#"value="&quot;&gt;&lt;script&gt;""#))
        #expect(!signIn.body.contains("<script>"), "\(signIn.body)")
        #expect(try get("/board", ["Accept": "text/html"]).body.contains("<form"))
        #expect(try get("/board?token=wrong", ["Accept": "text/html"]).body.contains("not this board"))
        #expect(try get("/sessions/s1", ["Authorization": "Bearer \(Self.token)"]).status == 404)
        #expect(try get("/people/p1?token=\(Self.token)").status == 404)
        let board = try get("/board?token=\(Self.token)")
        #expect(board.status == 200 && board.body.contains("<html"))
        // The board page opens its stream with the page's own query, so the token goes along.
        #expect(board.body.contains("board/events\" + location.search"))
        #expect(!process.output.contains(Self.token), "the token is never logged")
        let printed = try ZoneStreamProcess.runToExit(["run", "--print-config", "--set", "http.token=\(Self.token)"])
        #expect(!printed.output.contains(Self.token) && printed.output.contains("http.token"), "\(printed.output)")
    }

    /// Every guarded route in every form a client can write it (empty and dot segments, the
    /// absolute form, another case, percent-encoding, a trailing slash) and with every method,
    /// the board's event stream included, is refused without the token; only the exact probe
    /// and scrape routes are open.
    @Test func noFormOfAPathSkipsTheToken() throws {
        let process = try ZoneStreamProcess([
            "run", "--http-port", "0", "--embedded",
            "--set", "http.token=\(Self.token)",
        ])
        defer { process.signal(SIGKILL) }
        let port = try #require(
            process.httpPort(), "the endpoint never started listening: \(process.output.suffix(800))")
        var targets: [String] = []
        for route in ["sessions", "sessions/s1", "people/p1", "board", "board/events", "classes/c1", "nowhere"] {
            targets += [
                "/\(route)", "//\(route)", "///\(route)", "/./\(route)", "/x/../\(route)", "/\(route)/",
                "/\(route.uppercased())", "http://127.0.0.1:\(port)//\(route)", "http://127.0.0.1:\(port)/\(route)",
                "/%\(String(route.utf8.first!, radix: 16))\(route.dropFirst())", "/\(route)?prefix=&token=",
                "/\(route);token=\(Self.token)",
            ]
        }
        targets += ["//health/../sessions", "/health/../sessions", "/metrics/../board", "/ready/../people/p1", "*"]
        for method in ["GET", "HEAD", "OPTIONS", "POST", "DELETE"] {
            for target in targets {
                let answer = try LoopbackHTTPClient.request(method, port: port, target: target)
                #expect(answer.status == 401 || answer.status == 400, "\(method) \(target) answered \(answer.status)")
                #expect(!answer.body.contains("\"sessions\""), "\(method) \(target) showed sessions")
            }
        }
        for open in ["/health", "/ready", "/metrics"] {
            #expect(try LoopbackHTTPClient.request("GET", port: port, target: open).status != 401, "\(open)")
            #expect(try LoopbackHTTPClient.request("HEAD", port: port, target: open).status != 401, "HEAD \(open)")
        }
        let authorized = ["Authorization": "Bearer \(Self.token)"]
        #expect(
            try LoopbackHTTPClient.request("GET", port: port, target: "//sessions", headers: authorized).status == 200)
    }

    /// 19,000 clients (about this machine's per-process file limit, less the test's own) keep
    /// connections open with half a request head, reconnecting whenever one is closed, for
    /// 15 s. The endpoint closes the oldest to stay within `http.max_connections` and each after
    /// its header timeout; `/health`, probed every 200 ms meanwhile, must answer every probe,
    /// and the processor's memory must stay within a bound.
    @Test func twentyThousandSlowClientsNeitherStopHealthNorGrowMemory() throws {
        let broker = try TestBroker(.mock, partitions: 2)
        defer { broker.stop() }
        let process = try ZoneStreamProcess([
            "run", "--http-port", "0", "--bootstrap-servers", broker.bootstrapServers,
            "--set", "http.max_connections=1000", "--set", "http.header_timeout_ms=2000",
        ])
        defer { process.signal(SIGKILL) }
        let port = try #require(
            process.httpPort(), "the endpoint never started listening: \(process.output.suffix(800))")
        #expect(try LoopbackHTTPClient.get(port: port, path: "/health").status == 200)
        let before = ProcessMemory.residentBytes(pid: process.pid).current
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/scripts/slow_clients.py").path
        let flood = Process()
        flood.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        flood.arguments = ["python3", script, "\(port)", "19000", "15"]
        let report = Pipe()
        flood.standardOutput = report
        try flood.run()
        defer { if flood.isRunning { kill(flood.processIdentifier, SIGKILL) } }

        var answered = 0
        var probes = 0
        var failures: [String] = []
        var longestGap = 0.0
        var lastAnswer = Date()
        var peakBytes = before
        let end = Date().addingTimeInterval(13)
        while Date() < end {
            probes += 1
            let asked = Date()
            do {
                let response = try LoopbackHTTPClient.get(port: port, path: "/health", timeoutSeconds: 5)
                if response.status == 200 {
                    answered += 1
                    longestGap = max(longestGap, Date().timeIntervalSince(lastAnswer))
                    lastAnswer = Date()
                } else {
                    failures.append("status \(response.status)")
                }
            } catch {
                failures.append("\(error) after \(String(format: "%.1f", Date().timeIntervalSince(asked))) s")
            }
            peakBytes = max(peakBytes, ProcessMemory.residentBytes(pid: process.pid).current)
            Thread.sleep(forTimeInterval: 0.2)
        }
        longestGap = max(longestGap, Date().timeIntervalSince(lastAnswer))
        flood.waitUntilExit()
        let text = String(decoding: report.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let figures = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Int], "the flood's report: \(text)")
        print(
            "slow clients: \(text.trimmingCharacters(in: .whitespacesAndNewlines)); /health answered \(answered) of \(probes) probes, "
                + "longest gap \(String(format: "%.1f", longestGap)) s; RSS \(before / 1_048_576) -> peak \(peakBytes / 1_048_576) MB"
        )
        #expect((figures["opened"] ?? 0) >= 19_000, "the flood opened its connections: \(text)")
        #expect((figures["peak_open"] ?? 0) >= 5_000, "the flood held thousands at once: \(text)")
        #expect((figures["closed_by_server"] ?? 0) >= 1_000, "the endpoint closed the slow connections: \(text)")
        // Every probe answered (each may wait 5 s, as a liveness probe's timeout would let it);
        // the longest gap between answers is printed, not asserted: it is the machine's speed.
        #expect(answered == probes, "/health answered \(answered) of \(probes) probes; the others: \(failures)")
        #expect(peakBytes - before < 200 * 1_048_576, "RSS grew from \(before) to \(peakBytes) bytes")
        #expect(process.isRunning)
        #expect(try LoopbackHTTPClient.get(port: port, path: "/health").status == 200)
    }
}

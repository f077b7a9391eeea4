import Foundation
import Testing
import ZoneHTTP
import ZoneHarness
import ZoneSimulation
import ZoneTestSupport

/// The operator's endpoint of a `zonestream run` process consuming real records from a broker
/// process: each route answers with what the processor did, and `/metrics` counts what was
/// sent. (A child process, so the endpoint's async work never waits for the test runner's
/// cooperative threads, which the other suites' waits keep busy.)
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct OperatorEndpointTests {
    @Test func healthIsUpAndReadyFollowsTheBroker() throws {
        let broker = try BrokerProcess(partitions: 2, extraArguments: ["--applications", "ready"])
        defer { broker.stop() }
        try Self.serving([
            "--bootstrap-servers", broker.bootstrapServers, "--set", "group_id=ready",
            "--set", "metrics.statistics_interval_ms=200",
        ]) { client in
            #expect(try Self.poll { try client("/ready").status == 200 ? true : nil } == true)
            // The broker gone: still up, no longer ready, and /ready says why.
            broker.stop()
            let ready = try Self.poll { () throws -> LoopbackHTTPClient.Response? in
                let response = try client("/ready")
                return response.status == 503 ? response : nil
            }
            #expect(ready?.body.contains(#""reason":"broker unreachable"#) == true, "\(ready?.body ?? "")")
            let health = try client("/health")
            #expect(health.status == 200)
            #expect(health.body == #"{"status":"up"}"#)
        }
    }

    /// A coached class live: `GET /classes/{class}` shows the class plan's step now with the
    /// time left, each member's target status and the live leaderboard; `/sessions/{id}` shows
    /// the member's place in the plan.
    @Test func aCoachedClassIsShownLive() throws {
        let broker = try TestBroker(.mock, partitions: 2, applications: ["coached"])
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let sessionClass = "studio-4/spin-1800"
        let plan =
            #"{"class":"\#(sessionClass)","start_ts":\#(now - 60_000),"plan":"live-intervals","steps":[{"purpose":"warmup","duration_ms":600000,"target":{"heart_rate":{"min":100,"max":150}}},{"purpose":"work","duration_ms":600000}]}"#
        try input.send("class-plans", key: sessionClass, value: Array(plan.utf8))
        for (index, value) in [120, 160].enumerated() {
            let session = "rider-\(index)"
            try input.send(
                "workout-events", key: session,
                value: Array(
                    #"{"type":"session_start","session":"\#(session)","ts":\#(now - 30_000),"class":"\#(sessionClass)"}"#
                        .utf8))
            try input.send(
                "workout-events", key: session,
                value: Array(
                    #"{"type":"sample","session":"\#(session)","ts":\#(now - 20_000),"quantity":"heart_rate","value":\#(value)}"#
                        .utf8))
        }
        try input.flush()
        try Self.serving([
            "--bootstrap-servers", broker.bootstrapServers, "--set", "group_id=coached", "--set",
            "commit_interval_ms=200",
        ]) { client in
            let encoded = sessionClass.replacingOccurrences(of: "/", with: "%2F")
            let live = try Self.poll { () -> [String: Any]? in
                let response = try client("/classes/\(encoded)")
                guard response.status == 200,
                    let object = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any],
                    (object["members"] as? [Any])?.count == 2
                else { return nil }
                return object
            }
            let view = try #require(live, "the class's members never showed")
            #expect(view["plan"] as? String == "live-intervals")
            #expect((view["step"] as? [String: Any])?["index"] as? Int == 1)
            let left = view["time_left_ms"] as? Int ?? 0
            #expect(left > 400_000 && left <= 540_000, "\(left)")
            let members = view["members"] as? [[String: Any]] ?? []
            let statuses = members.map { ($0["status"] as? [String: Any])?["heart_rate"] as? String }
            #expect(statuses == ["in", "above"], "\(members)")
            // How old each member's state is, and the oldest: under a minute while its owner runs.
            let ages = members.compactMap { $0["stale_ms"] as? Int }
            #expect(ages.count == 2 && view["stale_ms"] as? Int == ages.max(), "\(view)")
            #expect(ages.allSatisfy { (0..<60_000).contains($0) }, "\(ages)")
            let session = try client("/sessions/rider-1")
            let object = try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: Any]
            let planned = object?["plan"] as? [String: Any]
            #expect(planned?["source"] as? String == "class" && planned?["steps"] as? Int == 2, "\(session.body)")
            #expect((planned?["status"] as? [String: Any])?["heart_rate"] as? String == "above")
            #expect(try client("/classes/no-such-class").status == 404)
        } port: { _ in
        }
    }

    /// `GET /sessions` pages through the group's live sessions by id; ids may hold `/`;
    /// `zonestream sessions` prints them.
    @Test(arguments: BrokerKind.selected)
    func sessionsAreListedPageByPage(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 2, applications: ["list"])
        defer { broker.stop() }
        let traffic = GymTraffic(input: try TestInput(bootstrap: broker.bootstrapServers))
        let ids = (0..<5).map { "gym-1/bike-\($0)" } + ["studio-2/row-0"]
        for id in ids {
            try traffic.startSession(id, person: "p-\(id)")
            try traffic.heartRate(id, at: 0, zone: 3)
        }
        try traffic.input.flush()
        try Self.serving([
            "--bootstrap-servers", broker.bootstrapServers, "--set", "group_id=list", "--set", "commit_interval_ms=200",
        ]) { client in
            func page(_ query: String) throws -> [String: Any] {
                let response = try client("/sessions?\(query)")
                #expect(response.status == 200, "\(response.body)")
                return try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any] ?? [:]
            }
            func ids(_ page: [String: Any]) -> [String] {
                (page["sessions"] as? [[String: Any]] ?? []).compactMap { $0["session"] as? String }
            }
            #expect(try Self.poll { try page("limit=10")["matching"] as? Int == 6 ? true : nil } == true)
            let first = try page("prefix=gym-1%2F&limit=3")
            #expect(ids(first) == ["gym-1/bike-0", "gym-1/bike-1", "gym-1/bike-2"])
            #expect(first["matching"] as? Int == 5 && first["next_cursor"] as? String == "gym-1/bike-2")
            let second = try page("prefix=gym-1%2F&limit=3&cursor=gym-1%2Fbike-2")
            #expect(ids(second) == ["gym-1/bike-3", "gym-1/bike-4"])
            #expect(second["next_cursor"] is NSNull)
            let brief = try #require((first["sessions"] as? [[String: Any]])?.first)
            #expect(brief["person"] as? String == "p-gym-1/bike-0")
            #expect((brief["zones"] as? [String: Any])?["heart_rate"] as? Int == 3)
            #expect(brief["last_sample_age_ms"] is Int)
            #expect((brief["stale_ms"] as? Int).map { (0..<60_000).contains($0) } == true, "\(brief)")
            #expect(try client("/sessions?limit=0").status == 400)
            // One session by an id with `/`, as sent or percent-encoded.
            #expect(try client("/sessions/gym-1/bike-3").status == 200)
            #expect(try client("/sessions/studio-2%2Frow-0").status == 200)
        } port: { port in
            let (status, output) = try ZoneStreamProcess.runToExit([
                "sessions", "--port", "\(port)", "--prefix", "gym-1/", "--limit", "4",
            ])
            #expect(status == 0, "\(output)")
            let lines = output.split(separator: "\n")
            #expect(lines.first?.hasPrefix("SESSION") == true, "\(output)")
            #expect(
                lines.dropFirst().prefix(4).map { $0.split(separator: " ").first ?? "" } == [
                    "gym-1/bike-0", "gym-1/bike-1", "gym-1/bike-2", "gym-1/bike-3",
                ], "\(output)")
            #expect(lines.last == "4 of 5 live sessions starting with 'gym-1/'", "\(output)")
        }
    }

    @Test func metricsSessionsAndBoardFollowTheRecords() throws {
        let broker = try BrokerProcess(partitions: 2, extraArguments: ["--applications", "http"])
        defer { broker.stop() }
        let traffic = GymTraffic(input: try TestInput(bootstrap: broker.bootstrapServers))
        try traffic.startSession("http-a", person: "maria")
        try traffic.heartRate("http-a", at: 0, zone: 1)
        try traffic.heartRate("http-a", at: 5, zone: 1)
        try traffic.heartRate("http-a", at: 10, zone: 4)
        try traffic.heartRate("http-a", at: 15, zone: 4)
        try traffic.heartRate("http-a", at: 15, zone: 4)  // duplicate
        try traffic.heartRate("http-a", at: 12, zone: 2)  // late
        try traffic.send("http-a", "{not json")
        try traffic.input.flush()

        try Self.serving([
            "--bootstrap-servers", broker.bootstrapServers, "--set", "group_id=http", "--set", "workers=2",
            "--set", "commit_interval_ms=200", "--set", "metrics.statistics_interval_ms=200",
        ]) { client in
            #expect(try Self.poll { try client("/ready").status == 200 ? true : nil } == true)

            // The session as the owning worker last published it.
            let session = try Self.poll { () throws -> [String: Any]? in
                let response = try client("/sessions/http-a")
                guard response.status == 200 else { return nil }
                let json = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any]
                let heartRate = (json?["zone_groups"] as? [String: Any])?["heart_rate"] as? [String: Any]
                return heartRate?["samples"] as? Int == 4 ? json : nil
            }
            let found = try #require(session, "session http-a never showed its 4 samples")
            #expect(found["person"] as? String == "maria")
            let heartRate = try #require((found["zone_groups"] as? [String: Any])?["heart_rate"] as? [String: Any])
            #expect((heartRate["current_zone"] as? [String: Any])?["index"] as? Int == 4)
            #expect(heartRate["current_value"] as? Double == 150)
            #expect((heartRate["configuration"] as? [String: Any])?["boundaries"] as? [Double] == [109, 127, 145, 163])
            let durations = try #require(heartRate["zone_durations"] as? [[String: Any]]).map {
                $0["duration_ms"] as? Int
            }
            #expect(durations == [10_000, 0, 0, 5_000, 0])

            let missing = try client("/sessions/nobody-here")
            #expect(missing.status == 404)
            #expect(missing.body == #"{"error":"session is not live in the group","session":"nobody-here"}"#)

            // Metrics: what was sent, counted once; lag arrives with librdkafka's statistics, and
            // a commit comes at the next commit interval after the records.
            let metrics = try Self.poll { () throws -> String? in
                let text = try client("/metrics").body
                return text.contains("zonestream_consumer_lag{") && Self.value(text, "zonestream_samples_in_total") == 6
                    && (Self.value(text, "zonestream_commit_duration_seconds_count") ?? 0) >= 1
                    ? text : nil
            }
            let text = try #require(metrics, "metrics never showed the 6 samples, consumer lag and a commit")
            #expect(Self.value(text, "zonestream_records_in_total") == 8)
            #expect(Self.value(text, #"zonestream_events_out_total{type="zone_change"}"#) == 2)
            #expect(Self.value(text, #"zonestream_events_out_total{type="dead_letter"}"#) == 1)
            #expect(Self.value(text, #"zonestream_dead_letters_total{reason="malformed_json"}"#) == 1)
            #expect(Self.value(text, #"zonestream_dead_letters_total{reason="too_large"}"#) == 0)
            #expect(Self.value(text, "zonestream_duplicate_samples_total") == 1)
            #expect(Self.value(text, "zonestream_late_samples_total") == 1)
            #expect(Self.sum(text, "zonestream_live_sessions{") == 1)
            #expect((Self.value(text, "zonestream_rebalances_total") ?? 0) >= 1)
            #expect((Self.value(text, "zonestream_commit_duration_seconds_count") ?? 0) >= 1)
            #expect(Self.value(text, "zonestream_partitions_restoring") == 0)

            let board = try client("/board")
            #expect(board.status == 200)
            #expect(board.headers["content-type"] == "text/html; charset=utf-8")
            #expect(board.body.contains("new EventSource(\"board/events\""))

            // A finished session leaves the directory.
            try traffic.endSession("http-a", at: 20)
            try traffic.input.flush()
            let gone = try Self.poll { () throws -> Bool? in
                try client("/sessions/http-a").status == 404 ? true : nil
            }
            #expect(gone == true)

            // Its workout reaches the person's summary, which any instance answers for.
            let summary = try Self.poll { () throws -> [String: Any]? in
                let response = try client("/people/maria")
                guard response.status == 200 else { return nil }
                return try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any]
            }
            let person = try #require(summary, "no summary for maria")
            #expect(person["type"] as? String == "person_summary")
            #expect(person["last_session"] as? String == "http-a")
            #expect((person["days_28"] as? [String: Any])?["workouts"] as? Int == 1)
            let nobody = try client("/people/nobody-here")
            #expect(nobody.status == 404)
            #expect(nobody.body == #"{"error":"no summary for this person","person":"nobody-here"}"#)
        }
    }

    /// Runs `zonestream run` with these arguments and the endpoint on a free port while `body`
    /// runs, with a GET function for it; stops the process by PID afterwards.
    static func serving(
        _ arguments: [String], _ body: (_ get: (String) throws -> LoopbackHTTPClient.Response) throws -> Void,
        port portBody: (Int) throws -> Void = { _ in }
    ) throws {
        let process = try ZoneStreamProcess(["run", "--http-port", "0"] + arguments)
        let port = try #require(
            process.httpPort(), "the endpoint never started listening: \(process.output.suffix(800))")
        try body { path in try LoopbackHTTPClient.get(port: port, path: path) }
        try portBody(port)
        #expect(process.signal(SIGTERM, waitSeconds: 20), "stops on SIGTERM")
    }

    /// Calls `probe` every 100 ms for up to 30 s until it returns a value.
    static func poll<Value>(_ probe: () throws -> Value?) throws -> Value? {
        try Eventually.value(within: 30, probe)
    }

    /// The value of the sample named exactly `series` (name and labels) in Prometheus text.
    static func value(_ text: String, _ series: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    /// The sum of every sample whose series starts with `prefix`.
    static func sum(_ text: String, _ prefix: String) -> Double {
        text.split(separator: "\n").filter { $0.hasPrefix(prefix) }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
    }
}

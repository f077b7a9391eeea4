import Foundation
import Testing
import ZoneHTTP
import ZoneHarness
import ZoneTestSupport

/// The operator's pack, checked against a real process: every metric the Grafana dashboard
/// and the alert rules use is exported by a running `zonestream run`; promtool accepts the
/// rules; systemd accepts the unit (the Kubernetes manifests: KubernetesManifestsTests).
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct ObservabilityFilesTests {
    static let root = RepositoryFiles.root

    /// Metric names used in `text` (series suffixes of histograms dropped); Prometheus's own
    /// `up` is not ZoneStream's to export.
    static func metricNames(in text: String) throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: "\\b(zonestream|process)_[a-z_]+\\b")
        var names: Set<String> = []
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            var name = String(text[range])
            for suffix in ["_bucket", "_count", "_sum"]
            where name.hasSuffix(suffix) && name != "zonestream_records_in_total" {
                name.removeLast(suffix.count)
            }
            names.insert(name)
        }
        return names
    }

    @Test func everyMetricTheDashboardAndAlertsUseIsExported() throws {
        let dashboard = try String(
            contentsOf: Self.root.appendingPathComponent("docs/grafana/zonestream.json"), encoding: .utf8)
        _ = try JSONSerialization.jsonObject(with: Data(dashboard.utf8))
        let rules = try String(
            contentsOf: Self.root.appendingPathComponent("docs/prometheus/alerts.yml"), encoding: .utf8)
        let used = try Self.metricNames(in: dashboard).union(try Self.metricNames(in: rules))
        #expect(used.count >= 15, "\(used.sorted())")

        let broker = try BrokerProcess(partitions: 4)
        defer { broker.stop() }
        let process = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "observability",
            extra: ["--set", "metrics.statistics_interval_ms=500"])
        defer { _ = process.signal(SIGKILL, waitSeconds: 10) }
        let port = try #require(process.httpPort(), "\(process.output.suffix(2000))")
        // Some traffic on every partition: librdkafka reports a partition's lag once it has fetched.
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        for index in 0..<40 {
            let session = "observed-\(index)"
            try input.send(
                "workout-events", key: session,
                value: Array(
                    #"{"type":"sample","session":"\#(session)","ts":1717200000000,"quantity":"heart_rate","value":120}"#
                        .utf8))
        }
        try input.flush()
        // Consumer lag appears with the first statistics after the partitions are assigned.
        var exported: Set<String> = []
        Eventually.holds(within: 60, poll: 0.5) {
            let body = (try? LoopbackHTTPClient.get(port: port, path: "/metrics").body) ?? ""
            exported = Set(
                body.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.compactMap {
                    $0.split(separator: " ").dropFirst(2).first.map(String.init)
                })
            return used.isSubset(of: exported)
        }
        #expect(used.subtracting(exported).isEmpty, "used but not exported: \(used.subtracting(exported).sorted())")
        let body = try LoopbackHTTPClient.get(port: port, path: "/metrics").body
        // Every exported metric has its help text.
        for name in exported { #expect(body.contains("# HELP \(name) "), "no HELP for \(name)") }
        // The endpoint's own clients: this scrape's connection at least, no board stream.
        func value(_ series: String) -> Double? {
            body.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap {
                Double($0.split(separator: " ").last ?? "")
            }
        }
        #expect((value("zonestream_http_connections") ?? 0) >= 1, "\(body)")
        #expect(value("zonestream_board_clients") == 0)
        // The workers' outputs (dead letters of these sessionless samples) had their
        // produce-to-acknowledgement times recorded.
        let delivered = Eventually.holds(within: 30, poll: 0.5) {
            let text = (try? LoopbackHTTPClient.get(port: port, path: "/metrics").body) ?? ""
            return text.split(separator: "\n").contains {
                $0.hasPrefix(#"zonestream_delivery_duration_seconds_count{stage="workers"}"#) && !$0.hasSuffix(" 0")
            }
        }
        #expect(delivered, "no delivery time recorded for the workers")
    }

    @Test func promtoolAcceptsTheAlertRules() throws {
        let (status, output) = try ChildProcess.run(
            "/usr/bin/promtool",
            ["check", "rules", Self.root.appendingPathComponent("docs/prometheus/alerts.yml").path])
        #expect(status == 0 && output.contains("SUCCESS"), "\(output)")
        // The rules' own unit tests: the instance-down alert under any job name.
        let unit = try ChildProcess.run(
            "/usr/bin/promtool",
            ["test", "rules", Self.root.appendingPathComponent("docs/prometheus/alerts-test.yml").path])
        #expect(unit.status == 0 && unit.output.contains("SUCCESS"), "\(unit.output)")
        // No job name is assumed: Kubernetes scrapes by annotation under its own job names (the
        // dashboard filters by the jobs it finds, `job=~"$job"`).
        for file in ["docs/prometheus/alerts.yml", "docs/grafana/zonestream.json"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("job=\"") && !text.contains("job!="), "\(file) names a job")
        }
    }

    @Test func systemdAcceptsTheUnit() throws {
        // The unit names /usr/bin/zonestream; verify it against the binary just built.
        let unit = try String(
            contentsOf: Self.root.appendingPathComponent("deploy/systemd/zonestream.service"), encoding: .utf8
        )
        .replacingOccurrences(of: "/usr/bin/zonestream", with: BrokerProcess.executable.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("zonestream.service")
        try unit.write(to: file, atomically: true, encoding: .utf8)
        let (status, output) = try ChildProcess.run("/usr/bin/systemd-analyze", ["verify", file.path])
        #expect(status == 0 && output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(output)")
    }

    /// The unit's sandbox: `systemd-analyze security` rates its exposure 2.0 or less.
    @Test func theSystemdUnitIsHardened() throws {
        let unit = Self.root.appendingPathComponent("deploy/systemd/zonestream.service").path
        let (status, output) = try ChildProcess.run("/usr/bin/systemd-analyze", ["security", "--offline=true", unit])
        #expect(status == 0, "\(output)")
        let line = output.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        let level = line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(try #require(level, "\(output.suffix(400))") <= 2.0, "\(line)")
    }
}

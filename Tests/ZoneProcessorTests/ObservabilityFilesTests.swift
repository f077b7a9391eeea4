import Foundation
import Testing
import Yams
import ZoneBench
import ZoneTestSupport

/// The operator's pack, checked against a real process: every metric the Grafana dashboard
/// and the alert rules use is exported by a running `zonestream run`; promtool accepts the
/// rules; systemd accepts the unit; the Kubernetes manifests probe /ready and /health, are
/// scraped, have limits, and configure only settings that exist.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct ObservabilityFilesTests {
    static let root = DeploymentFilesTests.root

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
        let process = try ZoneStreamProcess.processor(
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
        let deadline = Date().addingTimeInterval(60)
        repeat {
            Thread.sleep(forTimeInterval: 0.5)
            let body = (try? LoopbackHTTPClient.get(port: port, path: "/metrics").body) ?? ""
            exported = Set(
                body.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.compactMap {
                    $0.split(separator: " ").dropFirst(2).first.map(String.init)
                })
        } while !used.isSubset(of: exported) && Date() < deadline
        #expect(used.subtracting(exported).isEmpty, "used but not exported: \(used.subtracting(exported).sorted())")
        let body = try LoopbackHTTPClient.get(port: port, path: "/metrics").body
        // Every exported metric has its help text.
        for name in exported { #expect(body.contains("# HELP \(name) "), "no HELP for \(name)") }
    }

    @Test func promtoolAcceptsTheAlertRules() throws {
        let (status, output) = try ChildProcess.run(
            "/usr/bin/promtool",
            ["check", "rules", Self.root.appendingPathComponent("docs/prometheus/alerts.yml").path])
        #expect(status == 0 && output.contains("SUCCESS"), "\(output)")
    }

    @Test func systemdAcceptsTheUnit() throws {
        // The unit names /usr/local/bin/zonestream; verify it against the binary just built.
        let unit = try String(
            contentsOf: Self.root.appendingPathComponent("deploy/systemd/zonestream.service"), encoding: .utf8
        )
        .replacingOccurrences(of: "/usr/local/bin/zonestream", with: BrokerProcess.executable.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("zonestream.service")
        try unit.write(to: file, atomically: true, encoding: .utf8)
        let (status, output) = try ChildProcess.run("/usr/bin/systemd-analyze", ["verify", file.path])
        #expect(status == 0 && output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(output)")
    }

    @Test func kubernetesManifestsProbeScrapeAndLimit() throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("deploy/kubernetes/zonestream.yaml"), encoding: .utf8)
        let documents = try Yams.load_all(yaml: text).compactMap { $0 as? [String: Any] }
        let kinds = documents.compactMap { $0["kind"] as? String }
        #expect(kinds == ["ConfigMap", "Secret", "Deployment", "Service"])
        let deployment = try #require(documents.first { $0["kind"] as? String == "Deployment" })
        let template = try #require((deployment["spec"] as? [String: Any])?["template"] as? [String: Any])
        let annotations = try #require((template["metadata"] as? [String: Any])?["annotations"] as? [String: String])
        #expect(annotations["prometheus.io/scrape"] == "true" && annotations["prometheus.io/path"] == "/metrics")
        let container = try #require(((template["spec"] as? [String: Any])?["containers"] as? [[String: Any]])?.first)
        func probePath(_ name: String) -> String? {
            ((container[name] as? [String: Any])?["httpGet"] as? [String: Any])?["path"] as? String
        }
        #expect(probePath("readinessProbe") == "/ready" && probePath("livenessProbe") == "/health")
        // The settings bind beyond loopback, so the access token comes from the Secret.
        let environment = container["env"] as? [[String: Any]] ?? []
        let token = environment.first { $0["name"] as? String == "ZONESTREAM_HTTP_TOKEN" }
        let secretReference = (token?["valueFrom"] as? [String: Any])?["secretKeyRef"] as? [String: Any]
        #expect(
            secretReference?["name"] as? String == "zonestream-http" && secretReference?["key"] as? String == "token")
        let limits = (container["resources"] as? [String: Any])?["limits"] as? [String: Any]
        #expect(limits?["memory"] as? String == "1Gi")
        // The ConfigMap's settings file uses only settings ZoneStream knows.
        let configMap = try #require(documents.first { $0["kind"] as? String == "ConfigMap" })
        let settingsText = try #require((configMap["data"] as? [String: String])?["zonestream.yaml"])
        let settings = try #require(try Yams.load(yaml: settingsText) as? [String: Any])
        let keys = DeploymentFilesTests.dottedKeys(settings)
        let unknown = keys.subtracting(try DeploymentFilesTests.settingKeys())
        #expect(unknown.isEmpty, "\(unknown)")
    }
}

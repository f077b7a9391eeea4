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
        // The rules' own unit tests: the instance-down alert under any job name.
        let unit = try ChildProcess.run(
            "/usr/bin/promtool",
            ["test", "rules", Self.root.appendingPathComponent("docs/prometheus/alerts-test.yml").path])
        #expect(unit.status == 0 && unit.output.contains("SUCCESS"), "\(unit.output)")
        // No job name is assumed: Kubernetes scrapes by annotation under its own job names.
        for file in ["docs/prometheus/alerts.yml", "docs/grafana/zonestream.json"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("job="), "\(file) names a job")
        }
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

    /// The unit's sandbox: `systemd-analyze security` rates its exposure 2.0 or less.
    @Test func theSystemdUnitIsHardened() throws {
        let unit = Self.root.appendingPathComponent("deploy/systemd/zonestream.service").path
        let (status, output) = try ChildProcess.run("/usr/bin/systemd-analyze", ["security", "--offline=true", unit])
        #expect(status == 0, "\(output)")
        let line = output.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        let level = line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(try #require(level, "\(output.suffix(400))") <= 2.0, "\(line)")
    }

    @Test func kubernetesManifestsProbeScrapeAndLimit() throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("deploy/kubernetes/zonestream.yaml"), encoding: .utf8)
        let documents = try Yams.load_all(yaml: text).compactMap { $0 as? [String: Any] }
        let kinds = documents.compactMap { $0["kind"] as? String }
        #expect(kinds == ["ConfigMap", "Secret", "Secret", "Deployment", "Service"])
        let deployment = try #require(documents.first { $0["kind"] as? String == "Deployment" })
        let template = try #require((deployment["spec"] as? [String: Any])?["template"] as? [String: Any])
        let annotations = try #require((template["metadata"] as? [String: Any])?["annotations"] as? [String: String])
        #expect(annotations["prometheus.io/scrape"] == "true" && annotations["prometheus.io/path"] == "/metrics")
        let container = try #require(((template["spec"] as? [String: Any])?["containers"] as? [[String: Any]])?.first)
        func probePath(_ name: String) -> String? {
            ((container[name] as? [String: Any])?["httpGet"] as? [String: Any])?["path"] as? String
        }
        #expect(probePath("readinessProbe") == "/ready" && probePath("livenessProbe") == "/health")
        // The first restore may take a while: the startup probe waits for readiness, which
        // holds the liveness probe off meanwhile.
        #expect(probePath("startupProbe") == "/ready")
        // Hardened: non-root, read-only root filesystem, no capabilities, seccomp's default.
        let podSecurity = try #require((template["spec"] as? [String: Any])?["securityContext"] as? [String: Any])
        #expect(podSecurity["runAsNonRoot"] as? Bool == true)
        #expect((podSecurity["seccompProfile"] as? [String: Any])?["type"] as? String == "RuntimeDefault")
        let security = try #require(container["securityContext"] as? [String: Any])
        #expect(security["readOnlyRootFilesystem"] as? Bool == true)
        #expect(security["allowPrivilegeEscalation"] as? Bool == false)
        #expect((security["capabilities"] as? [String: Any])?["drop"] as? [String] == ["ALL"])
        // The image from a registry, pinned by version.
        let image = try #require(container["image"] as? String)
        #expect(image.split(separator: "/").count >= 2 && image.contains(":") && !image.hasSuffix(":latest"))
        // The settings bind beyond loopback, so the access token comes from the Secret.
        let environment = container["env"] as? [[String: Any]] ?? []
        func secretReference(_ name: String) -> (name: String?, key: String?) {
            let variable = environment.first { $0["name"] as? String == name }
            let reference = (variable?["valueFrom"] as? [String: Any])?["secretKeyRef"] as? [String: Any]
            return (reference?["name"] as? String, reference?["key"] as? String)
        }
        #expect(secretReference("ZONESTREAM_HTTP_TOKEN") == ("zonestream-http", "token"))
        // The SASL password, too, comes from a Secret, never from the ConfigMap.
        #expect(secretReference("ZONESTREAM_KAFKA_PROPERTIES_SASL_PASSWORD") == ("zonestream-kafka", "sasl-password"))
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

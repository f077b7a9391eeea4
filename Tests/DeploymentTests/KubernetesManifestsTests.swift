import Foundation
import Testing
import Yams
import ZoneTestSupport

/// deploy/kubernetes as a platform team applies it: each overlay rendered by `kubectl
/// kustomize`, every manifest validated offline against the Kubernetes schemas
/// (kubernetes-validate, strict: an unknown field fails), and what the docs promise of it
/// checked on the rendered objects.
@Suite(.processSuite, .timeLimit(.minutes(10)))
struct KubernetesManifestsTests {
    static let root = RepositoryFiles.root
    static let overlays = ["at-least-once", "exactly-once"]

    /// The overlay rendered by kubectl's kustomize, as text and as objects.
    static func render(_ overlay: String) throws -> (text: String, objects: [[String: Any]]) {
        let directory = root.appendingPathComponent("deploy/kubernetes/overlays/\(overlay)").path
        let (status, text) = try ChildProcess.run("/usr/bin/env", ["kubectl", "kustomize", directory])
        try #require(status == 0, "kubectl kustomize \(overlay): \(text)")
        return (text, try Yams.load_all(yaml: text).compactMap { $0 as? [String: Any] })
    }

    /// kubernetes-validate's verdict on `text`: its exit status and output.
    static func validate(_ text: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zs-k8s-\(UUID().uuidString).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let validator = root.appendingPathComponent(".venv/bin/kubernetes-validate").path
        return try ChildProcess.run(validator, ["--strict", "--quiet", file.path])
    }

    @Test(arguments: overlays)
    func everyManifestIsValidAgainstTheKubernetesSchemas(overlay: String) throws {
        let rendered = try Self.render(overlay)
        let verdict = try Self.validate(rendered.text)
        #expect(verdict.status == 0, "\(verdict.output)")
        // The validator does reject: the same manifests with a misspelt field fail.
        let misspelt = rendered.text.replacingOccurrences(of: "readinessProbe:", with: "readynessProbe:")
        #expect(try Self.validate(misspelt).status != 0)
    }

    @Test(arguments: overlays)
    func theWorkloadIsSpreadProbedHardenedAndBudgeted(overlay: String) throws {
        let objects = try Self.render(overlay).objects
        let kinds = Set(objects.compactMap { $0["kind"] as? String })
        let workloadKind = overlay == "exactly-once" ? "StatefulSet" : "Deployment"
        #expect(kinds.isSuperset(of: ["ConfigMap", "Service", "PodDisruptionBudget", workloadKind]), "\(kinds)")
        // Secrets are referenced, never shipped: a rendered overlay holds no Secret.
        #expect(!kinds.contains("Secret"))
        let workload = try #require(objects.first { $0["kind"] as? String == workloadKind })
        let pod = try Pod(workload)
        #expect(
            pod.annotations["prometheus.io/scrape"] == "true" && pod.annotations["prometheus.io/path"] == "/metrics")
        #expect(pod.probePath("readinessProbe") == "/ready" && pod.probePath("livenessProbe") == "/health")
        // The first restore may take a while: the startup probe waits for readiness.
        #expect(pod.probePath("startupProbe") == "/ready")
        #expect(pod.security["runAsNonRoot"] as? Bool == true)
        #expect((pod.security["seccompProfile"] as? [String: Any])?["type"] as? String == "RuntimeDefault")
        let containerSecurity = try #require(pod.container["securityContext"] as? [String: Any])
        #expect(containerSecurity["readOnlyRootFilesystem"] as? Bool == true)
        #expect(containerSecurity["allowPrivilegeEscalation"] as? Bool == false)
        #expect((containerSecurity["capabilities"] as? [String: Any])?["drop"] as? [String] == ["ALL"])
        #expect(pod.secretReference("ZONESTREAM_HTTP_TOKEN") == ("zonestream-http", "token"))
        #expect(
            pod.secretReference("ZONESTREAM_KAFKA_PROPERTIES_SASL_PASSWORD") == ("zonestream-kafka", "sasl-password"))
        // Spread over nodes (required) and zones (preferred).
        let spread = pod.spec["topologySpreadConstraints"] as? [[String: Any]] ?? []
        #expect(
            Set(spread.compactMap { $0["topologyKey"] as? String })
                == ["kubernetes.io/hostname", "topology.kubernetes.io/zone"])
        // Requests and limits from the sizing rules (docs/how-to/size.md).
        let resources = pod.container["resources"] as? [String: [String: String]]
        #expect(resources?["limits"]?["memory"] == "1Gi" && resources?["requests"]?["cpu"] == "500m")
        // The image from a registry, at the release the binary reports.
        let image = try #require(pod.container["image"] as? String)
        let release = try Self.release()
        #expect(image.split(separator: "/").count >= 2 && image.hasSuffix(":\(release)"), "\(image)")
        // The disruption budget takes one pod of this workload at a time.
        let budget = try #require(objects.first { $0["kind"] as? String == "PodDisruptionBudget" })
        let budgetSpec = budget["spec"] as? [String: Any]
        #expect(budgetSpec?["maxUnavailable"] as? Int == 1)
        let selected = (budgetSpec?["selector"] as? [String: Any])?["matchLabels"] as? [String: String]
        #expect(
            selected != nil && selected!.allSatisfy { pod.labels[$0.key] == $0.value },
            "\(String(describing: selected))")
        // The settings volume names the generated ConfigMap, whose file uses known settings only.
        let configMap = try #require(objects.first { $0["kind"] as? String == "ConfigMap" })
        let configMapName = try #require((configMap["metadata"] as? [String: Any])?["name"] as? String)
        let volumes = pod.spec["volumes"] as? [[String: Any]] ?? []
        #expect(volumes.contains { ($0["configMap"] as? [String: Any])?["name"] as? String == configMapName })
        // Its own service account, with no API token; the TLS Secret mounted beside the settings.
        #expect(pod.spec["serviceAccountName"] as? String == "zonestream")
        #expect(pod.spec["automountServiceAccountToken"] as? Bool == false)
        let account = try #require(objects.first { $0["kind"] as? String == "ServiceAccount" })
        #expect(account["automountServiceAccountToken"] as? Bool == false)
        #expect(
            volumes.contains {
                ($0["secret"] as? [String: Any])?["secretName"] as? String == "zonestream-tls"
                    && ($0["secret"] as? [String: Any])?["optional"] as? Bool == true
            })
        // Only the endpoint's port comes in; only the brokers and DNS go out.
        let policy = try #require(objects.first { $0["kind"] as? String == "NetworkPolicy" })
        let policySpec = try #require(policy["spec"] as? [String: Any])
        #expect(policySpec["policyTypes"] as? [String] == ["Ingress", "Egress"])
        let ingressPorts = (policySpec["ingress"] as? [[String: Any]] ?? []).flatMap {
            ($0["ports"] as? [[String: Any]] ?? []).compactMap { $0["port"] as? Int }
        }
        #expect(ingressPorts == [8080])
        let settingsText = try #require((configMap["data"] as? [String: String])?["zonestream.yaml"])
        let settings = try #require(try Yams.load(yaml: settingsText) as? [String: Any])
        let unknown = RepositoryFiles.dottedKeys(settings).subtracting(try RepositoryFiles.settingKeys())
        #expect(unknown.isEmpty, "\(unknown)")
    }

    /// Exactly once runs as a StatefulSet whose pods pass their stable names as instance_id.
    @Test func exactlyOnceGivesEachPodAStableInstanceID() throws {
        let objects = try Self.render("exactly-once").objects
        let statefulSet = try #require(objects.first { $0["kind"] as? String == "StatefulSet" })
        let pod = try Pod(statefulSet)
        #expect(pod.value("ZONESTREAM_PROCESSING_GUARANTEE") == "exactly_once")
        let instance = pod.variable("ZONESTREAM_INSTANCE_ID")
        #expect(
            ((instance?["valueFrom"] as? [String: Any])?["fieldRef"] as? [String: Any])?["fieldPath"] as? String
                == "metadata.name")
        let governing = (statefulSet["spec"] as? [String: Any])?["serviceName"] as? String
        #expect(
            objects.contains {
                $0["kind"] as? String == "Service"
                    && ($0["metadata"] as? [String: Any])?["name"] as? String == governing
            })
        // At least once draws an identity at each start: no instance id, the default guarantee.
        let deployment = try #require(
            try Self.render("at-least-once").objects.first { $0["kind"] as? String == "Deployment" })
        #expect(try Pod(deployment).variable("ZONESTREAM_INSTANCE_ID") == nil)
    }

    /// The release `zonestream --version` reports (VersionCommand.release).
    static func release() throws -> String {
        let source = try String(
            contentsOf: root.appendingPathComponent("Sources/zonestream/Commands/VersionCommand.swift"), encoding: .utf8
        )
        let line = try #require(source.split(separator: "\n").first { $0.contains("static let release") })
        return String(try #require(line.split(separator: "\"").dropFirst().first))
    }

    /// A workload's pod template, read for the checks above.
    struct Pod {
        let labels: [String: String]
        let annotations: [String: String]
        let spec: [String: Any]
        let container: [String: Any]
        var security: [String: Any] { spec["securityContext"] as? [String: Any] ?? [:] }

        init(_ workload: [String: Any]) throws {
            let template = try #require((workload["spec"] as? [String: Any])?["template"] as? [String: Any])
            let metadata = template["metadata"] as? [String: Any]
            labels = metadata?["labels"] as? [String: String] ?? [:]
            annotations = metadata?["annotations"] as? [String: String] ?? [:]
            spec = try #require(template["spec"] as? [String: Any])
            container = try #require((spec["containers"] as? [[String: Any]])?.first)
        }

        func probePath(_ name: String) -> String? {
            ((container[name] as? [String: Any])?["httpGet"] as? [String: Any])?["path"] as? String
        }

        func variable(_ name: String) -> [String: Any]? {
            (container["env"] as? [[String: Any]] ?? []).first { $0["name"] as? String == name }
        }

        func value(_ name: String) -> String? { variable(name)?["value"] as? String }

        func secretReference(_ name: String) -> (name: String?, key: String?) {
            let reference = (variable(name)?["valueFrom"] as? [String: Any])?["secretKeyRef"] as? [String: Any]
            return (reference?["name"] as? String, reference?["key"] as? String)
        }
    }
}

import Foundation
import Testing
import Yams
import ZoneTestSupport

/// deploy/kubernetes/components/keda and components/prometheus-operator as a platform team adds
/// them to an overlay: rendered by `kubectl kustomize`, the Kubernetes objects validated by
/// kubernetes-validate and the custom resources against the published CRDs' schemas kept in
/// deploy/kubernetes/schemas, and what they promise checked on the rendered objects.
@Suite(.processSuite, .timeLimit(.minutes(10)))
struct KubernetesComponentsTests {
    static let root = KubernetesManifestsTests.root
    static let customKinds = [
        "ScaledObject": "keda.sh-v1alpha1-scaledobject",
        "ServiceMonitor": "monitoring.coreos.com-v1-servicemonitor",
        "PrometheusRule": "monitoring.coreos.com-v1-prometheusrule",
    ]

    /// `overlay` with both optional components, as a user's own kustomization names them
    /// (with the StatefulSet patch the keda component's comment gives for exactly once).
    static func render(_ overlay: String) throws -> (text: String, objects: [[String: Any]]) {
        // kustomize takes only relative paths: the user's directory sits two levels down.
        let directory = root.appendingPathComponent(".build/kustomize-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var kustomization = """
            resources: [../../deploy/kubernetes/overlays/\(overlay)]
            components: [../../deploy/kubernetes/components/keda, ../../deploy/kubernetes/components/prometheus-operator]

            """
        if overlay == "exactly-once" {
            kustomization += """
                patches:
                  - target: {kind: ScaledObject, name: zonestream}
                    patch: '[{"op": "replace", "path": "/spec/scaleTargetRef/kind", "value": "StatefulSet"}]'

                """
        }
        try kustomization.write(
            to: directory.appendingPathComponent("kustomization.yaml"), atomically: true, encoding: .utf8)
        let (status, text) = try ChildProcess.run("/usr/bin/env", ["kubectl", "kustomize", directory.path])
        try #require(status == 0, "kubectl kustomize: \(text)")
        return (text, try Yams.load_all(yaml: text).compactMap { $0 as? [String: Any] })
    }

    static func object(_ kind: String, in objects: [[String: Any]]) throws -> [String: Any] {
        try #require(objects.first { $0["kind"] as? String == kind }, "no \(kind)")
    }

    static func schemaFile(_ kind: String) -> URL {
        root.appendingPathComponent("deploy/kubernetes/schemas/\(customKinds[kind] ?? kind).schema.json")
    }

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(arguments: KubernetesManifestsTests.overlays)
    func everyObjectIsValidAgainstItsSchema(overlay: String) throws {
        let rendered = try Self.render(overlay)
        let builtIn = rendered.objects.filter { Self.customKinds[$0["kind"] as? String ?? ""] == nil }
        let text = try builtIn.map { try Yams.dump(object: $0) }.joined(separator: "---\n")
        let verdict = try KubernetesManifestsTests.validate(text)
        #expect(verdict.status == 0, "\(verdict.output)")
        for kind in Self.customKinds.keys.sorted() {
            let object = try Self.object(kind, in: rendered.objects)
            try SchemaValidator.validate([try Self.json(object)], schemaFile: Self.schemaFile(kind))
            // The schema does reject: a misspelt field of the spec fails it.
            var misspelt = object
            var spec = object["spec"] as? [String: Any] ?? [:]
            spec["minReplicas"] = 2
            misspelt["spec"] = spec
            try SchemaValidator.validate(
                [try Self.json(misspelt)], schemaFile: Self.schemaFile(kind), expectInvalid: true)
        }
    }

    /// KEDA scales the overlay's workload on the group's lag of the input, between two pods and
    /// the input's default partition count.
    @Test(arguments: KubernetesManifestsTests.overlays)
    func kedaScalesTheWorkloadOnItsGroupsLag(overlay: String) throws {
        let objects = try Self.render(overlay).objects
        let workload = try Self.object(overlay == "exactly-once" ? "StatefulSet" : "Deployment", in: objects)
        let scaled = try #require(try Self.object("ScaledObject", in: objects)["spec"] as? [String: Any])
        let target = try #require(scaled["scaleTargetRef"] as? [String: Any])
        #expect(target["kind"] as? String == workload["kind"] as? String)
        #expect(target["name"] as? String == (workload["metadata"] as? [String: Any])?["name"] as? String)
        #expect(scaled["minReplicaCount"] as? Int == 2)
        let settingsText = try #require(
            (try Self.object("ConfigMap", in: objects)["data"] as? [String: String])?["zonestream.yaml"])
        let settings = try #require(try Yams.load(yaml: settingsText) as? [String: Any])
        let defaults = try Self.settingDefaults()
        // Past the input's partition count an instance would own nothing.
        #expect("\(scaled["maxReplicaCount"] ?? "")" == defaults["create_topics.partitions"])
        let trigger = try #require((scaled["triggers"] as? [[String: Any]])?.first)
        let metadata = try #require(trigger["metadata"] as? [String: String])
        #expect(trigger["type"] as? String == "kafka")
        #expect(metadata["consumerGroup"] == (settings["group_id"] as? String ?? defaults["group_id"]))
        let topics = settings["topics"] as? [String: Any]
        #expect(metadata["topic"] == (topics?["workout_events"] as? String ?? defaults["topics.workout_events"]))
        #expect(Int(metadata["lagThreshold"] ?? "") != nil)
    }

    /// The ServiceMonitor scrapes the Service's port by name; the PrometheusRule holds exactly
    /// the rules of docs/prometheus/alerts.yml (scripts/prometheus-rule.py writes it from them).
    @Test func prometheusOperatorObjectsFollowTheServiceAndTheAlertRules() throws {
        let objects = try Self.render("at-least-once").objects
        let service = try Self.object("Service", in: objects)
        let serviceLabels = (service["metadata"] as? [String: Any])?["labels"] as? [String: String] ?? [:]
        let portNames = ((service["spec"] as? [String: Any])?["ports"] as? [[String: Any]] ?? []).compactMap {
            $0["name"] as? String
        }
        let monitor = try #require(try Self.object("ServiceMonitor", in: objects)["spec"] as? [String: Any])
        let selected = (monitor["selector"] as? [String: Any])?["matchLabels"] as? [String: String] ?? [:]
        #expect(!selected.isEmpty && selected.allSatisfy { serviceLabels[$0.key] == $0.value }, "\(selected)")
        let endpoints = monitor["endpoints"] as? [[String: Any]] ?? []
        #expect(endpoints.map { $0["port"] as? String } == portNames.map { Optional($0) })
        #expect(endpoints.first?["path"] as? String == "/metrics")
        let rule = try #require(try Self.object("PrometheusRule", in: objects)["spec"] as? [String: Any])
        let alerts = try String(
            contentsOf: Self.root.appendingPathComponent("docs/prometheus/alerts.yml"), encoding: .utf8)
        let expected = try #require(try Yams.load(yaml: alerts) as? [String: Any])
        #expect(
            try Self.json(["groups": rule["groups"] ?? []]) == (try Self.json(["groups": expected["groups"] ?? []])),
            "run .venv/bin/python scripts/prometheus-rule.py")
    }

    /// Every setting's default, by its dotted key, from the settings reference.
    static func settingDefaults() throws -> [String: String] {
        let reference = try String(
            contentsOf: root.appendingPathComponent("docs/reference/settings.md"), encoding: .utf8)
        var defaults: [String: String] = [:]
        for line in reference.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            let key = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            defaults[key] = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`\""))
        }
        return defaults
    }
}

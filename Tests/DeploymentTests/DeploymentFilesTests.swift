import Foundation
import Testing
import Yams
import ZoneProcessor
import ZoneTestSupport

/// docker-compose.yml and the Dockerfile, checked for structure (no Docker engine runs on the
/// build machines): KRaft Kafka, every topic the processor uses created, ZoneStream pointed
/// at that Kafka with only settings that exist, the board and metrics port exposed, and the
/// start order enforced by health checks.
struct DeploymentFilesTests {
    @Test func composeRunsKRaftKafkaZoneStreamAndTheLoadGenerator() throws {
        let compose = try RepositoryFiles.yaml("docker-compose.yml")
        let services = try #require(compose["services"] as? [String: [String: Any]])
        #expect(Set(services.keys) == ["kafka", "topics", "zonestream", "loadgen"])

        // Kafka: Apache's image, KRaft (broker and controller in one node, no ZooKeeper).
        let kafka = try #require(services["kafka"])
        #expect((kafka["image"] as? String)?.hasPrefix("apache/kafka:") == true)
        let kafkaEnvironment = try #require(kafka["environment"] as? [String: Any])
        #expect(kafkaEnvironment["KAFKA_PROCESS_ROLES"] as? String == "broker,controller")
        #expect(kafkaEnvironment.keys.allSatisfy { !$0.contains("ZOOKEEPER") })
        let advertised = try #require(kafkaEnvironment["KAFKA_ADVERTISED_LISTENERS"] as? String)
        #expect(advertised == "PLAINTEXT://kafka:9092")
        #expect(kafka["healthcheck"] != nil)

        // Topics: every topic the processor reads or writes, the tables and changelogs compacted.
        let topics = try #require(services["topics"])
        let script = try #require((topics["command"] as? [String])?.joined(separator: "\n"))
        for topic in Topics().all { #expect(script.contains(topic), "topic \(topic) is not created") }
        let compacted = Topics().all.filter { Topics().compacted.contains($0) }.joined(separator: " ")
        #expect(script.contains("for topic in \(compacted); do create \"$$topic\" --config cleanup.policy=compact"))
        #expect(Self.dependsOn(topics, "kafka", "service_healthy"))

        // ZoneStream: built here, pointed at the broker, every setting a real one.
        let zonestream = try #require(services["zonestream"])
        #expect(zonestream["build"] as? String == ".")
        #expect(Self.dependsOn(zonestream, "topics", "service_completed_successfully"))
        let environment = try #require(zonestream["environment"] as? [String: Any])
        #expect(environment["ZONESTREAM_KAFKA_BOOTSTRAP_SERVERS"] as? String == "kafka:9092")
        #expect(environment["ZONESTREAM_HTTP_HOST"] as? String == "0.0.0.0")
        let known = try RepositoryFiles.settingKeys().map {
            "ZONESTREAM_" + $0.uppercased().replacingOccurrences(of: ".", with: "_")
        }
        for name in environment.keys { #expect(known.contains(name), "\(name) is not a setting") }
        let port = try #require(environment["ZONESTREAM_HTTP_PORT"] as? String)
        // Published on the host's loopback only, which is what makes its network trusted.
        #expect((zonestream["ports"] as? [String]) == ["127.0.0.1:\(port):\(port)"])
        #expect(environment["ZONESTREAM_HTTP_TRUSTED_NETWORK"] as? String == "true")
        // The image's own probe, run without a shell (Compose runs CMD-SHELL with /bin/sh).
        let health = try #require((zonestream["healthcheck"] as? [String: Any])?["test"] as? [String])
        #expect(health == ["CMD", "zonestream", "probe"])

        // Load generator: the same image, started once ZoneStream is ready, against the broker.
        let loadgen = try #require(services["loadgen"])
        #expect(loadgen["image"] as? String == zonestream["image"] as? String)
        #expect(Self.dependsOn(loadgen, "zonestream", "service_healthy"))
        let command = try #require(loadgen["command"] as? [String])
        #expect(command.first == "loadgen")
        #expect(command.firstIndex(of: "--bootstrap-servers").map { command[$0 + 1] } == "kafka:9092")
    }

    @Test func dockerfileBuildsTheExecutableAndShipsItsLibraries() throws {
        let text = try String(contentsOf: RepositoryFiles.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let stages = lines.filter { $0.hasPrefix("FROM ") }
        #expect(stages.count == 2)
        #expect(text.contains("librdkafka-dev libjansson-dev"))
        #expect(text.contains("librdkafka1 libjansson4"))
        #expect(text.contains("swift build -c release --product zonestream"))
        for copied in ["Package.swift", "Sources", "config/zonestream.yaml"] {
            #expect(lines.contains { $0.hasPrefix("COPY ") && $0.contains(copied) }, "\(copied) is not copied")
        }
        #expect(lines.contains("EXPOSE 8080"))
        #expect(lines.contains(#"ENTRYPOINT ["zonestream"]"#))
        #expect(text.contains("ENV ZONESTREAM_HTTP_HOST=0.0.0.0"))
        #expect(text.contains(#"CMD ["zonestream", "probe", "--config", "/etc/zonestream/zonestream.yaml"]"#))
        #expect(lines.contains { $0.hasPrefix("HEALTHCHECK ") })
        // Every image pinned by version (a digit in its tag), never `latest` or a bare name.
        let images = lines.filter { $0.hasPrefix("ARG SWIFT_IMAGE=") || $0.hasPrefix("FROM ") && !$0.contains("$") }
            .map { $0.split(separator: " ")[1].replacingOccurrences(of: "SWIFT_IMAGE=", with: "") }
        #expect(images.count == 2, "\(images)")
        for image in images {
            let tag = image.split(separator: ":").last.map(String.init) ?? ""
            #expect(image.contains(":") && tag.contains { $0.isNumber } && tag != "latest", "\(image) is not pinned")
        }
        // What the image copies must exist here.
        for path in ["Package.swift", "Sources", "Tests", "config/zonestream.yaml"] {
            #expect(FileManager.default.fileExists(atPath: RepositoryFiles.root.appendingPathComponent(path).path))
        }
    }

    static func dependsOn(_ service: [String: Any], _ other: String, _ condition: String) -> Bool {
        ((service["depends_on"] as? [String: Any])?[other] as? [String: Any])?["condition"] as? String == condition
    }
}

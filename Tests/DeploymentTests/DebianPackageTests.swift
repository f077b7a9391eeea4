import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// The Debian package of scripts/package.sh, as a platform team would use it: its binary needs
/// no Swift toolchain, it installs on this machine with its system user, unit and settings,
/// the installed binary runs the README's example from its installed path as that user, and
/// a purge leaves nothing behind. The test command builds the package before the tests; run
/// alone, this test builds it when it is missing.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(20)))
struct DebianPackageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The newest package in .build-release/debian, built first when there is none.
    static func package() throws -> URL {
        let directory = root.appendingPathComponent(".build-release/debian")
        func newest() -> URL? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { $0.hasSuffix(".deb") }.sorted().last.map { directory.appendingPathComponent($0) }
        }
        if let package = newest() { return package }
        let (status, output) = try ChildProcess.run(
            "/bin/bash", [root.appendingPathComponent("scripts/package.sh").path])
        #expect(status == 0, "scripts/package.sh: \(output.suffix(2000))")
        return try #require(newest(), "scripts/package.sh wrote no package")
    }

    @Test func theBinaryNeedsNoSwiftToolchain() throws {
        let package = try Self.package()
        let unpacked = FileManager.default.temporaryDirectory.appendingPathComponent("zs-deb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: unpacked) }
        let (status, output) = try ChildProcess.run("/usr/bin/dpkg-deb", ["-x", package.path, unpacked.path])
        #expect(status == 0, "\(output)")
        let binary = unpacked.appendingPathComponent("usr/bin/zonestream").path
        let (lddStatus, libraries) = try ChildProcess.run("/usr/bin/ldd", [binary])
        #expect(lddStatus == 0, "\(libraries)")
        // The Kafka and JSON libraries come from the system, as the package's Depends says;
        // nothing from the toolchain (/opt/swift/...), no libswiftCore, nothing missing.
        #expect(libraries.contains("librdkafka.so") && libraries.contains("libjansson.so"), "\(libraries)")
        for line in libraries.split(separator: "\n") {
            #expect(!line.contains("swift") && !line.contains("not found"), "\(line)")
        }
        let (_, control) = try ChildProcess.run("/usr/bin/dpkg-deb", ["--field", package.path, "Depends"])
        #expect(control.contains("librdkafka1") && control.contains("libjansson4"), "\(control)")
    }

    /// The docs the package installs are read on the host: every relative link of every page
    /// leads to a file the package installed (the dashboard, the alert rules, the schemas, the
    /// Kubernetes files included).
    @Test func thePackagedDocsLinksHold() throws {
        let package = try Self.package()
        let unpacked = FileManager.default.temporaryDirectory.appendingPathComponent("zs-deb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: unpacked) }
        let (status, output) = try ChildProcess.run("/usr/bin/dpkg-deb", ["-x", package.path, unpacked.path])
        try #require(status == 0, "\(output)")
        let documents = unpacked.appendingPathComponent("usr/share/doc/zonestream")
        let enumerator = FileManager.default.enumerator(at: documents, includingPropertiesForKeys: nil)
        var pages = 0
        while let page = enumerator?.nextObject() as? URL {
            guard page.pathExtension == "md" else { continue }
            pages += 1
            let name = page.path.replacingOccurrences(of: documents.path + "/", with: "")
            let broken = try MarkdownLinks.broken(in: page)
            #expect(broken.isEmpty, "\(name): \(broken)")
        }
        #expect(pages > 20, "\(pages) pages packaged")
        #expect(
            FileManager.default.fileExists(
                atPath: documents.appendingPathComponent("docs/grafana/zonestream.json").path))
        #expect(
            FileManager.default.fileExists(atPath: documents.appendingPathComponent("docs/prometheus/alerts.yml").path))
    }

    @Test func theInstalledPackageRunsTheReadmeExampleAsItsUser() throws {
        try #require(getuid() == 0, "installing a package needs root")
        let (queried, _) = try ChildProcess.run("/usr/bin/dpkg-query", ["-W", "zonestream"])
        try #require(queried != 0, "zonestream is installed on this machine already; the test would remove it")
        let package = try Self.package()
        let (installed, installOutput) = try ChildProcess.run("/usr/bin/dpkg", ["-i", package.path])
        defer { _ = try? ChildProcess.run("/usr/bin/dpkg", ["--purge", "zonestream"]) }
        try #require(installed == 0, "dpkg -i: \(installOutput)")

        // The system user, its unit (whose ExecStart names the installed binary) and settings.
        let (_, user) = try ChildProcess.run("/usr/bin/getent", ["passwd", "zonestream"])
        #expect(user.contains(":/nonexistent:/usr/sbin/nologin"), "\(user)")
        let (verified, verifyOutput) = try ChildProcess.run(
            "/usr/bin/systemd-analyze", ["verify", "/lib/systemd/system/zonestream.service"])
        #expect(
            verified == 0 && verifyOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(verifyOutput)")
        #expect(FileManager.default.fileExists(atPath: "/etc/zonestream/zonestream.yaml"))
        // Both may hold secrets: root and the service's group only.
        for path in ["/etc/zonestream/zonestream.yaml", "/etc/zonestream/environment"] {
            let (_, mode) = try ChildProcess.run("/usr/bin/stat", ["-c", "%a %U:%G", path])
            #expect(mode.trimmingCharacters(in: .whitespacesAndNewlines) == "640 root:zonestream", "\(path): \(mode)")
        }
        let (_, unit) = try ChildProcess.run("/bin/cat", ["/lib/systemd/system/zonestream.service"])
        #expect(unit.contains("RestartPreventExitStatus=78"), "a refused start is not restarted forever")

        try Self.runTheReadmeExample()

        // An operator enabled the unit (the link `systemctl enable` makes); a purge removes it.
        let wants = "/etc/systemd/system/multi-user.target.wants"
        try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(
            atPath: wants + "/zonestream.service", withDestinationPath: "/lib/systemd/system/zonestream.service")
        let (purged, purgeOutput) = try ChildProcess.run("/usr/bin/dpkg", ["--purge", "zonestream"])
        #expect(purged == 0, "\(purgeOutput)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: wants + "/zonestream.service")) == nil)
        for path in ["/usr/bin/zonestream", "/etc/zonestream", "/lib/systemd/system/zonestream.service"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) after the purge")
        }
        let (userGone, _) = try ChildProcess.run("/usr/bin/getent", ["passwd", "zonestream"])
        #expect(userGone != 0, "the system user after the purge")
    }

    /// `/usr/bin/zonestream run` with the installed settings, as the package's user, against
    /// the embedded broker: ready by its own probe, the README's outputs exactly, SIGTERM exit 0.
    static func runTheReadmeExample() throws {
        let example = try ReadmeExample.load()
        let broker = try TestBroker(.mock, partitions: 8)
        defer { broker.stop() }
        let processor = try ZoneStreamProcess(
            [
                "--reuid=zonestream", "--regid=zonestream", "--init-groups", "/usr/bin/zonestream", "run",
                "--config", "/etc/zonestream/zonestream.yaml", "--bootstrap-servers", broker.bootstrapServers,
                "--http-port", "0", "--set", "commit_interval_ms=200",
            ], executable: URL(fileURLWithPath: "/usr/bin/setpriv"), directory: URL(fileURLWithPath: "/"))
        defer { processor.signal(SIGKILL) }
        let port = try #require(processor.httpPort(), "\(processor.output.suffix(2000))")
        let ready = Eventually.holds(within: 60, poll: 0.2) {
            (try? ChildProcess.run("/usr/bin/zonestream", ["probe", "--port", "\(port)"]).status) == 0
        }
        try #require(ready, "not ready: \(processor.output.suffix(2000))")

        let topics = example.outputs.keys.sorted()
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: topics)
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        for record in example.inputs {
            try input.send(record.topic, key: record.key, value: Array(record.value.utf8))
        }
        try input.flush()
        let complete = collector.wait { collected in
            topics.allSatisfy { collected.records($0).count >= example.outputs[$0, default: []].count }
        }
        #expect(complete, "the outputs did not all arrive: \(processor.output.suffix(2000))")
        for topic in topics {
            #expect(collector.records(topic).map(\.value) == example.outputs[topic], "\(topic)")
        }
        #expect(processor.signal(SIGTERM), "SIGTERM stops it")
        #expect(processor.ending == "exit status 0", "\(processor.ending ?? "running")")
    }
}

import Foundation
import Testing
import ZoneTestSupport

/// No Docker engine runs on the build machines, so the Dockerfile's build stage is checked by
/// doing what it does: the package is built from a directory that holds exactly the files its
/// COPY lines name, and nothing else. A file the build needs and the Dockerfile forgets fails here.
@Suite(.timeLimit(.minutes(15)))
struct DockerContextTests {
    /// The (source, destination) pairs of the build stage's COPY lines (the stage before the
    /// second FROM; `--from` copies belong to the runtime stage).
    static func buildStageCopies(_ dockerfile: String) -> [(source: String, destination: String)] {
        var copies: [(String, String)] = []
        var stages = 0
        for line in dockerfile.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("FROM ") { stages += 1 }
            guard stages == 1, line.hasPrefix("COPY "), !line.contains("--from") else { continue }
            let words = line.split(separator: " ").dropFirst().map(String.init)
            guard words.count == 2 else { continue }
            let destination = words[1] == "./" ? words[0] : words[1]
            copies.append((words[0], destination))
        }
        return copies
    }

    @Test func thePackageBuildsFromExactlyWhatTheDockerfileCopies() throws {
        let root = DeploymentFilesTests.root
        let dockerfile = try String(contentsOf: root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let copies = Self.buildStageCopies(dockerfile)
        #expect(copies.map(\.source).contains("Package.swift"), "the build stage copies the manifest: \(copies)")

        let context = FileManager.default.temporaryDirectory.appendingPathComponent("zs-docker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: context) }
        for copy in copies {
            let target = context.appendingPathComponent(copy.destination)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent(copy.source), to: target)
        }

        let swift = try #require(Self.swiftExecutable(), "the swift driver is on PATH")
        // At the lowest priority: the build only has to finish within the suite's limit, and
        // at full priority it took the machine from the suites that measure time.
        let build = try ChildProcess.run(
            "/usr/bin/nice", ["-n", "19", swift, "build", "--package-path", context.path, "--product", "zonestream"])
        #expect(build.status == 0, "building from the Dockerfile's COPY sources failed:\n\(build.output.suffix(4000))")
        guard build.status == 0 else { return }
        let binary = context.appendingPathComponent(".build/debug/zonestream").path
        let version = try ChildProcess.run(binary, ["version"])
        #expect(version.status == 0 && version.output.contains("librdkafka:"), "\(version.output)")
    }

    static func swiftExecutable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/swift" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

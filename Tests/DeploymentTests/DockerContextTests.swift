import Foundation
import Testing
import ZoneTestSupport

/// No Docker engine runs on the build machines, so the Dockerfile's build stage is checked by
/// doing what it does: the release binary is built from a directory that holds exactly the
/// files its COPY lines name, and nothing else (scripts/package.sh, which the test command
/// runs, builds the Debian package that way). A file the build needs and the Dockerfile
/// forgets fails there.
@Suite(.processSuite, .timeLimit(.minutes(15)))
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

    /// scripts/package.sh builds the release binary as the build stage does, in
    /// .build-release/context: that directory holds the COPY lines' files and nothing else (but
    /// the commit it was copied at), and the binary built from it runs.
    @Test func thePackageBuildsFromExactlyWhatTheDockerfileCopies() throws {
        let root = RepositoryFiles.root
        let dockerfile = try String(contentsOf: root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let copies = Self.buildStageCopies(dockerfile)
        #expect(copies.map(\.source).contains("Package.swift"), "the build stage copies the manifest: \(copies)")
        _ = try DebianPackageTests.package()
        let context = root.appendingPathComponent(".build-release/context")
        let held = Set(try FileManager.default.contentsOfDirectory(atPath: context.path))
        let copied = Set(copies.map { String($0.destination.split(separator: "/").first ?? "") })
        // Besides the copies: the commit they were copied at, and what the build resolved.
        #expect(
            held.subtracting([".build-commit", "Package.resolved"]) == copied,
            "the build context holds \(held.sorted())")
        let script = try String(contentsOf: root.appendingPathComponent("scripts/package.sh"), encoding: .utf8)
        #expect(script.contains("--package-path \"$context\""), "scripts/package.sh builds from the context")
        let binary = root.appendingPathComponent(".build-release/release/zonestream").path
        let version = try ChildProcess.run(binary, ["version"])
        #expect(version.status == 0 && version.output.contains("librdkafka:"), "\(version.output)")
        // The commit the copy carries, not one git finds for the repository the copy lies in.
        if let commit = try? String(contentsOf: context.appendingPathComponent(".build-commit"), encoding: .utf8) {
            let carried = commit.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(version.output.contains(carried), "the binary names the commit \(carried): \(version.output)")
        }
    }
}

import Foundation
import PackagePlugin

/// Writes `BuildInfo+Generated.swift` for the target that uses it: the git commit of the
/// checkout it is built from and the Swift compiler's version, for `zonestream version` and
/// the `zonestream_build_info` metric. It runs again when git's HEAD log changes (every
/// commit, checkout or reset), or the `.build-commit` a copy of the sources carries.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo+Generated.swift")
        let repository = context.package.directoryURL
        let script = repository.appending(path: "scripts/build-info.sh")
        // Only files that exist: a source tree without .git still builds (commit "unknown").
        let gitFiles = [".git/HEAD", ".git/logs/HEAD", ".git/index", ".build-commit"]
            .map { repository.appending(path: $0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        return [
            .buildCommand(
                displayName: "Writing ZoneStream's build info",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, repository.path, output.path],
                // The build's PATH, so the script finds git and swift where the build did.
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
                inputFiles: [script] + gitFiles,
                outputFiles: [output])
        ]
    }
}

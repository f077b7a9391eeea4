import ArgumentParser
import ZoneCodecs
import ZoneKafka

/// What this binary is: ZoneStream's version, the commit it was built from, the compiler and
/// the C libraries. `zonestream version` prints it; `zonestream --version` prints the first
/// line; `/metrics` exports it as `zonestream_build_info`.
struct ZoneStreamVersion {
    /// ZoneStream's own version (CHANGELOG.md; docs/how-to/upgrade.md says what a change means).
    static let release = "0.7.0"

    static var commit: String { GeneratedBuildInfo.commit }

    /// One line, for `--version` and the log at start.
    static var summary: String { "zonestream \(release) (commit \(commit))" }

    /// The labels of `zonestream_build_info`.
    static var labels: [(String, String)] {
        [
            ("version", release), ("commit", commit), ("swift", GeneratedBuildInfo.swiftVersion),
            ("librdkafka", Librdkafka.version), ("jansson", Jansson.version),
        ]
    }
}

/// `zonestream version`: the version, the commit, the Swift compiler and the C libraries.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print ZoneStream's version, git commit, and the Swift and librdkafka versions.")

    func run() {
        for (name, value) in ZoneStreamVersion.labels { print("\(name): \(value)") }
    }
}

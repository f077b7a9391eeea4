import ArgumentParser
import Foundation
import Testing
import ZoneProcessor

@testable import zonestream

/// A settings file as an operator writes one: a secret in a file others may read is warned
/// about, and a file that repeats the defaults changes none of the settings logged as changed.
struct SettingsFileTests {
    static func file(_ text: String, mode: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "zs-settings-\(UUID().uuidString).yaml"
        ).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func aTokenInAFileEveryUserMayReadIsNamedAndNotInOneOnlyItsGroupReads() throws {
        let open = try Self.file("http:\n  token: s3cret-for-the-board\n", mode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: open) }
        #expect(try SettingsLoader(file: open, environment: [:], overrides: []).filesExposingSecrets == [open])
        let closed = try Self.file("http:\n  token: s3cret-for-the-board\n", mode: 0o640)
        defer { try? FileManager.default.removeItem(atPath: closed) }
        #expect(try SettingsLoader(file: closed, environment: [:], overrides: []).filesExposingSecrets.isEmpty)
        let noSecret = try Self.file("workers: 2\n", mode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: noSecret) }
        #expect(try SettingsLoader(file: noSecret, environment: [:], overrides: []).filesExposingSecrets.isEmpty)
    }

    /// The shipped settings file holds every setting at its default: nothing is logged as changed.
    @Test func theShippedSettingsFileChangesNothing() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let shipped = root.appendingPathComponent("config/zonestream.yaml").path
        let loader = try SettingsLoader(file: shipped, environment: [:], overrides: ["workers=3"])
        #expect(Array(loader.changedSettingsMetadata.keys) == ["workers"])
    }
}

/// An operator's tool pointed at the service's settings reads the service's secrets file
/// beside them, as the unit does (its EnvironmentFile), under what the shell exports.
struct ToolSecretsTests {
    @Test func theSecretsFileBesideTheSettingsGivesTheToken() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-etc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = directory.appendingPathComponent("zonestream.yaml").path
        try "http:\n  port: 8080\n".write(toFile: settings, atomically: true, encoding: .utf8)
        try "# Secrets\nZONESTREAM_HTTP_TOKEN=\"from-the-file\"\n\nOTHER=1\n".write(
            to: directory.appendingPathComponent("environment"), atomically: true, encoding: .utf8)
        #expect(
            SettingsOptions.environmentFile(directory.appendingPathComponent("environment").path)[
                "ZONESTREAM_HTTP_TOKEN"] == "from-the-file")
        let options = try SettingsOptions.parse(["--config", settings])
        #expect(try options.load().string("http.token") == "from-the-file")
    }
}

/// A second application on one cluster: its outputs never mix with the first one's.
struct ApplicationNameTests {
    @Test func anApplicationsOutputsAreApartFromTheDefaultOnesAndNamedOnesAreKept() throws {
        let first = try SettingsLoader(file: nil, environment: [:], overrides: []).topics(groupID: "gym")
        let second = try SettingsLoader(
            file: nil, environment: [:], overrides: ["application=gym-b", "topics.class_summaries=b-classes"]
        ).topics(groupID: "gym-b")
        func outputs(_ topics: Topics) -> [String] {
            [
                topics.zoneChanges, topics.workoutsFinished, topics.deadLetters, topics.personSummaries,
                topics.targetChanges, topics.classSummaries,
            ]
        }
        #expect(outputs(first) == Topics().outputsForTest, "defaults unchanged")
        #expect(Set(outputs(first)).isDisjoint(with: outputs(second)))
        #expect(second.zoneChanges == "gym-b-zone-changes" && second.deadLetters == "gym-b-zonestream-dlq")
        #expect(second.classSummaries == "b-classes", "a topic named by hand is kept")
        #expect(second.workoutEvents == first.workoutEvents && second.zoneProfiles == first.zoneProfiles, "same inputs")
    }
}

extension Topics {
    fileprivate var outputsForTest: [String] {
        [
            "zone-changes", "workouts-finished", "zonestream-dlq", "person-summaries", "target-changes",
            "class-summaries",
        ]
    }
}

import ArgumentParser
import Foundation
import Logging
import ZoneEngine
import ZoneKafka
import ZoneProcessor

/// `zonestream dlq`: tools for the dead-letter topic.
struct DeadLetterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dlq", abstract: "Tools for the dead-letter topic.", subcommands: [DeadLetterReplayCommand.self])
}

/// `zonestream dlq replay`: re-produces the inputs dead-lettered for one reason, original key
/// and bytes, to the topic they came from, once the cause is fixed (an ACL corrected for
/// `output_rejected`, a cap raised for `session_limit`).
struct DeadLetterReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-produce the inputs dead-lettered for a reason to the topic they came from.")

    @OptionGroup var settings: SettingsOptions

    @Option(help: "The dead letters' reason (output_rejected, session_limit, ...).")
    var reason: String

    @Option(help: "Only dead letters written at or after this time (ISO 8601, or ms since the epoch).")
    var since: String?

    @Option(help: "Only dead letters written at or before this time (ISO 8601, or ms since the epoch).")
    var until: String?

    @Flag(help: "Show what would be replayed, produce nothing.")
    var dryRun = false

    func validate() throws {
        // A reason no dead letter can have would replay nothing and look like success.
        guard DeadLetterReason(rawValue: reason) != nil else {
            throw ValidationError(
                "--reason '\(reason)' is no dead-letter reason; one of: \(DeadLetterReason.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, Self.milliseconds(value) == nil {
                throw ValidationError(
                    "\(name) '\(value)': expected ISO 8601 (2026-11-25T10:00:00Z) or ms since the epoch")
            }
        }
    }

    func run() async throws {
        try await ExitStatus.mapping { try replay() }
    }

    private func replay() throws {
        let connection = try ToolConnection(settings: settings, tool: "dlq replay")
        let (configuration, logger) = (connection.configuration, connection.logger)
        let tool = DeadLetterReplay(
            kafka: configuration.kafka, deadLetterTopic: configuration.topics.deadLetters,
            inputTopics: [configuration.topics.workoutEvents, configuration.topics.personWorkouts], logger: logger)
        let window = (since.flatMap(Self.milliseconds) ?? Int64.min)...(until.flatMap(Self.milliseconds) ?? Int64.max)
        var outcome = DeadLetterReplay.Outcome()
        for candidate in try tool.candidates(reason: reason, window: window, outcome: &outcome) {
            if try tool.wasReplayed(candidate) {
                outcome.failedAgain += 1
            } else {
                outcome.replayed.append(candidate)
            }
        }
        if !dryRun { try tool.replay(outcome.replayed) }
        print(Self.report(outcome, reason: reason, dryRun: dryRun))
    }

    static func report(_ outcome: DeadLetterReplay.Outcome, reason: String, dryRun: Bool) -> String {
        let verb = dryRun ? "would replay" : "replayed"
        var lines = outcome.replayed.map { candidate in
            let key = candidate.key.map { String(decoding: $0, as: UTF8.self) } ?? "(none)"
            return
                "\(verb) \(candidate.location) -> \(candidate.sourceTopic) key=\(key) (\(candidate.value.count) bytes)"
        }
        lines.append(
            "\(verb) \(outcome.replayed.count) of \(outcome.matching) dead letters with reason \(reason); skipped: "
                + "\(outcome.failedAgain) failed again after a replay, \(outcome.truncated) truncated, "
                + "\(outcome.otherTopic) from a topic ZoneStream does not consume")
        return lines.joined(separator: "\n")
    }

    /// `value` as ms since the epoch: a whole number, or an ISO 8601 date and time.
    static func milliseconds(_ value: String) -> Int64? {
        if let number = Int64(value) { return number }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: value) { return Int64(date.timeIntervalSince1970 * 1000) }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: value).map { Int64($0.timeIntervalSince1970 * 1000) }
    }
}

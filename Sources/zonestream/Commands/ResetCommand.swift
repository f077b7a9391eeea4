import ArgumentParser
import Foundation
import ZoneKafka
import ZoneProcessor

/// `zonestream reset`: makes a group of ZoneStream start over, like Kafka Streams' application
/// reset tool: refuses while any of its groups has members (asked of the coordinator, without
/// joining), sets its input offsets (to the earliest,
/// the latest, or a time), skips the person stage's repartition topic to its end (reprocessing
/// fills it again), and clears both state changelogs with tombstones. Outputs are not touched.
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Reset a stopped group: input offsets to the earliest (or --to-time), state cleared.")

    @OptionGroup var settings: SettingsOptions

    @Option(help: "The consumer group (same as --set group_id=...; its internal topics are named after it).")
    var group: String?

    @Option(help: "Start again at the first record written at or after this time (ISO 8601, or ms since the epoch).")
    var toTime: String?

    @Flag(help: "Start again at the end of the input (skip what is there).")
    var toLatest = false

    @Flag(help: "Show what would change, change nothing.")
    var dryRun = false

    @Flag(
        help:
            "Every instance of the group is stopped: needed on the embedded broker, which cannot describe groups (elsewhere the group's coordinator is asked)."
    )
    var groupStopped = false

    func validate() throws {
        if let toTime, DeadLetterReplayCommand.milliseconds(toTime) == nil {
            throw ValidationError(
                "--to-time '\(toTime)': expected ISO 8601 (2026-11-25T10:00:00Z) or ms since the epoch")
        }
        if toTime != nil && toLatest { throw ValidationError("--to-time and --to-latest: choose one") }
    }

    func run() async throws {
        try await ExitStatus.mapping { try reset() }
    }

    private func reset() throws {
        var settings = settings
        if let group { settings.overrides.append("group_id=\(group)") }
        let connection = try ToolConnection(settings: settings, tool: "reset")
        let (configuration, logger) = (connection.configuration, connection.logger)
        let group = configuration.groupID
        let tool = GroupReset(
            kafka: configuration.kafka,
            // The group's timing, not an instance's static identity: the tool is a member of its own.
            memberProperties: configuration.memberProperties().filter { $0.key != "group.instance.id" }, logger: logger,
            groupStopped: groupStopped)
        let target: GroupReset.Target =
            toLatest ? .latest : toTime.flatMap(DeadLetterReplayCommand.milliseconds).map { .time($0) } ?? .earliest
        let verb = dryRun ? "would set" : "set"
        let topics = configuration.topics
        let members = [
            GroupReset.Member(group: group, topic: topics.workoutEvents, target: target),
            GroupReset.Member(group: "\(group).people", topic: topics.personWorkouts, target: .latest),
            GroupReset.Member(group: "\(group).classes", topic: topics.classWorkouts, target: .latest),
        ]
        for (member, changes) in zip(members, try tool.reset(members, dryRun: dryRun)) {
            for change in changes {
                let before = change.before < 0 ? "none" : "\(change.before)"
                print(
                    "\(verb) \(member.group) \(member.topic)/\(change.partition.partition): \(before) -> \(change.partition.offset)"
                )
            }
        }
        for topic in [topics.changelog, topics.personChangelog, topics.classChangelog] {
            let cleared = try tool.clearState(topic: topic, dryRun: dryRun)
            print("\(dryRun ? "would clear" : "cleared") \(topic): \(cleared) keys")
        }
    }
}

import ArgumentParser

/// `zonestream`: the workout-zone stream processor and its tools.
@main
struct ZoneStreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zonestream",
        abstract: "Time in heart-rate and power zones for live workout sessions, from Kafka.",
        version: ZoneStreamVersion.summary,
        subcommands: [
            RunCommand.self, BrokerCommand.self, DemoCommand.self, LoadgenCommand.self, BenchCommand.self,
            ProbeCommand.self, SessionsCommand.self, DeadLetterCommand.self, StateCommand.self, ResetCommand.self,
            SettingsCommand.self, VersionCommand.self,
        ],
        defaultSubcommand: RunCommand.self)

    /// A `zonestream` started by the test or benchmark harness stops when its parent is gone
    /// (``ParentWatch``); then the command line is parsed and run as usual.
    static func main() async {
        ParentWatch.startIfAsked()
        await main(nil)
    }
}

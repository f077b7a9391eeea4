import ArgumentParser

/// `zonestream`: the workout-zone stream processor and its tools.
@main
struct ZoneStreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zonestream",
        abstract: "Time in heart-rate and power zones for live workout sessions, from Kafka.",
        subcommands: [RunCommand.self, BrokerCommand.self, DemoCommand.self, LoadgenCommand.self, BenchCommand.self],
        defaultSubcommand: RunCommand.self)
}

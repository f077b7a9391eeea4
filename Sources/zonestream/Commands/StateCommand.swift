import ArgumentParser
import Foundation
import ZoneKafka
import ZoneProcessor

/// `zonestream state`: tools for the processor's state.
struct StateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state", abstract: "Tools for the processor's state.", subcommands: [StateDumpCommand.self])
}

/// `zonestream state dump --partition N`: what an instance assigned partition N would restore
/// from the changelog, one JSON line per live session and per finished id.
struct StateDumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump", abstract: "Print a partition's restorable state from the changelog as JSON lines.")

    @OptionGroup var settings: SettingsOptions

    @Option(help: "The partition of the input topic (and of the changelog) to read.")
    var partition: Int

    func validate() throws {
        try requireOption("--partition", partition, in: 0...100_000)
    }

    func run() async throws {
        try await ExitStatus.mapping { try dump() }
    }

    private func dump() throws {
        let connection = try ToolConnection(settings: settings, tool: "state dump")
        let (configuration, logger) = (connection.configuration, connection.logger)
        let topic = configuration.topics.changelog
        let metadata = try KafkaConsumer(configuration: configuration.kafka, groupID: nil, logger: logger)
        let partitions = try metadata.partitionCount(topic: topic)
        metadata.close()
        guard partition < partitions else {
            throw ValidationError("--partition \(partition): \(topic) has partitions 0 to \(partitions - 1)")
        }
        let state = try PartitionStateDump.read(
            configuration: configuration, partition: Int32(partition), logger: logger)
        for line in state.jsonLines { print(line) }
        FileHandle.standardError.write(
            Data(
                ("\(topic) partition \(partition): \(state.sessions.count) live sessions, \(state.finished.count) "
                    + "finished within retention, from \(state.recordsRead) records (\(state.recordsRefused) refused)\n")
                    .utf8))
    }
}

import ArgumentParser
import Foundation
import ZoneKafka
import ZoneProcessor

/// `zonestream run`: the processor.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the stream processor (an embedded broker when no Kafka is configured).")

    @OptionGroup var settings: SettingsOptions

    @Option(help: "Worker threads (same as --set workers=N).")
    var workers: Int?

    func run() throws {
        let loader = try settings.load()
        let logger = Logs.bootstrap(level: loader.string("log_level"))
        var bootstrap = loader.string("kafka.bootstrap_servers")
        var embedded: MockCluster?
        if bootstrap.isEmpty {
            let cluster = try EmbeddedBroker.start(brokers: 1, partitions: try loader.integer("embedded.partitions"))
            bootstrap = cluster.bootstrapServers
            embedded = cluster
            logger.info("no Kafka configured: embedded broker started", metadata: ["bootstrap": "\(bootstrap)"])
        }
        var configuration = try loader.processorConfiguration(bootstrapServers: bootstrap)
        if let workers { configuration.workers = workers }
        // The embedded broker has every topic already and does not answer CreateTopics.
        if embedded != nil { configuration.createTopicPartitions = 0 }
        let processor = ZoneProcessor(configuration: configuration, logger: logger)
        TerminationSignals.onTermination { processor.stop() }
        try processor.run()
        withExtendedLifetime(embedded) {}
    }
}

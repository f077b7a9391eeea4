import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle
import ZoneHTTP
import ZoneKafka
import ZoneProcessor

/// `zonestream run`: the processor, and beside it the operator's HTTP endpoint, as services of
/// one swift-service-lifecycle group: SIGTERM or SIGINT stops the processor first (it drains,
/// flushes and commits), then the HTTP server; if either fails, the other is shut down too.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the stream processor (an embedded broker when no Kafka is configured).")

    @OptionGroup var settings: SettingsOptions

    @Option(help: "Worker threads (same as --set workers=N).")
    var workers: Int?

    @Option(help: "HTTP port (same as --set http.port=N; 0: any free port).")
    var httpPort: Int?

    @Flag(help: "No HTTP endpoint (same as --set http.enabled=false).")
    var noHTTP = false

    func run() async throws {
        var options = settings
        if let httpPort { options.overrides.append("http.port=\(httpPort)") }
        if noHTTP { options.overrides.append("http.enabled=false") }
        let loader = try options.load()
        guard let format = Logs.Format(rawValue: loader.string("log_format")) else {
            throw SettingsError(description: "log_format must be text or json, got '\(loader.string("log_format"))'")
        }
        let logger = Logs.bootstrap(level: loader.string("log_level"), format: format)
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

        let registry = PrometheusCollectorRegistry()
        let processor = ZoneProcessor(
            configuration: configuration, logger: logger, metricsFactory: PrometheusMetricsFactory(registry: registry))
        var services: [any Service] = []
        if try loader.boolean("http.enabled") {
            services.append(try httpServer(loader: loader, processor: processor, registry: registry, logger: logger))
        }
        services.append(ProcessorService(processor: processor))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                          failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        withExtendedLifetime(embedded) {}
    }

    private func httpServer(
        loader: SettingsLoader, processor: ZoneProcessor, registry: PrometheusCollectorRegistry, logger: Logger
    ) throws -> some Service {
        let board = BoardSettings(
            updateInterval: .milliseconds(try loader.integer("http.board_interval_ms")),
            maxSessions: try loader.integer("http.board_max_sessions"))
        let endpoint = OperatorEndpoint(processor: processor, registry: registry, board: board)
        let host = loader.string("http.host")
        return Application(
            router: endpoint.makeRouter(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: try loader.integer("http.port"))),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info(
                    "http endpoint listening",
                    metadata: ["host": "\(host)", "port": "\(port)", "board": "http://\(host):\(port)/board"])
            },
            logger: logger)
    }
}

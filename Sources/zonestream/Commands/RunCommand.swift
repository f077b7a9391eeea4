import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle
import UnixSignals
import ZoneHTTP
import ZoneKafka
import ZoneProcessor

/// `zonestream run`: the processor, and beside it the operator's HTTP endpoint, as services of
/// one swift-service-lifecycle group: SIGTERM or SIGINT stops the processor first (it drains,
/// flushes and commits), then the HTTP server; if either fails, the other is shut down too.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the stream processor against a Kafka cluster (or --embedded).")

    @OptionGroup var settings: SettingsOptions

    @Option(help: "Worker threads (same as --set workers=N).")
    var workers: Int?

    @Option(help: "HTTP port (same as --set http.port=N; 0: any free port).")
    var httpPort: Int?

    @Flag(help: "No HTTP endpoint (same as --set http.enabled=false).")
    var noHTTP = false

    @Flag(
        help:
            "Start a local in-memory broker and run on it: for trying ZoneStream out, not for production (it keeps nothing)."
    )
    var embedded = false

    @Flag(help: "Print the effective settings, each with where it came from, and exit.")
    var printConfig = false

    func run() async throws {
        try await ExitStatus.mapping { try await runProcessor() }
    }

    private func runProcessor() async throws {
        var options = settings
        if let workers { options.overrides.append("workers=\(workers)") }
        if let httpPort { options.overrides.append("http.port=\(httpPort)") }
        if noHTTP { options.overrides.append("http.enabled=false") }
        // Every setting is checked here, before anything starts.
        let loader = try options.load()
        if printConfig { return print(loader.printout) }
        var configuration = try checkedConfiguration(loader)
        let logger = Logs.bootstrap(
            level: loader.string("log_level"), format: Logs.Format(rawValue: loader.string("log_format")) ?? .text)
        let embeddedCluster = try connect(&configuration, loader: loader, logger: logger)
        logger.info(
            "starting",
            metadata: [
                "version": "\(ZoneStreamVersion.release)", "commit": "\(ZoneStreamVersion.commit)",
                "settings_file": "\(loader.file ?? "none: defaults, environment and flags")",
            ])
        logger.info("effective settings (not defaults)", metadata: loader.changedSettingsMetadata)
        for path in loader.filesExposingSecrets {
            logger.warning(
                "the settings file holds a secret and every user of this host may read it: chmod o-r it (the package installs it 0640 root:zonestream)",
                metadata: ["file": "\(path)"])
        }
        try await serve(configuration, loader: loader, logger: logger)
        withExtendedLifetime(embeddedCluster) {}
    }

    /// The processor configuration, once the endpoint's exposure, its port and the choice of
    /// broker are checked.
    private func checkedConfiguration(_ loader: SettingsLoader) throws -> ProcessorConfiguration {
        let configuration = try loader.processorConfiguration(
            bootstrapServers: loader.string("kafka.bootstrap_servers"))
        if loader.boolean("http.enabled") {
            try HTTPExposure.check(
                host: loader.string("http.host"), token: loader.string("http.token"),
                trustedNetwork: loader.boolean("http.trusted_network"))
            try PortCheck.requireFree(host: loader.string("http.host"), port: loader.integer("http.port"))
        }
        if configuration.kafka.bootstrapServers.isEmpty && !embedded {
            throw SettingsError(
                description: """
                    no Kafka cluster configured: set kafka.bootstrap_servers to the cluster's address \
                    (--bootstrap-servers, or ZONESTREAM_KAFKA_BOOTSTRAP_SERVERS), or run with --embedded \
                    for a local in-memory broker that keeps nothing (not for production)
                    """)
        }
        return configuration
    }

    /// Waits for the cluster to answer, or starts the embedded broker (returned: it lives as
    /// long as the caller holds it).
    private func connect(_ configuration: inout ProcessorConfiguration, loader: SettingsLoader, logger: Logger)
        throws -> MockCluster?
    {
        guard configuration.kafka.bootstrapServers.isEmpty else {
            let producer = try KafkaProducer(configuration: configuration.kafka)
            try BrokerUnavailable.require(
                using: producer, bootstrapServers: configuration.kafka.bootstrapServers,
                timeoutS: loader.integer("kafka.connect_timeout_s"), setting: "kafka.connect_timeout_s")
            // A layout the processor cannot use is refused here, with exit 78, before anything starts.
            try TopicLayout.prepare(configuration, using: producer, logger: logger)
            return nil
        }
        let cluster = try EmbeddedBroker.start(
            brokers: 1, partitions: loader.integer("embedded.partitions"), topics: [configuration.topics])
        configuration.kafka.bootstrapServers = cluster.bootstrapServers
        configuration.embeddedBroker = true
        logger.warning(
            "embedded broker started: it keeps nothing, not for production",
            metadata: ["bootstrap": "\(cluster.bootstrapServers)"])
        // The embedded broker has every topic already and does not answer CreateTopics.
        configuration.createTopicPartitions = 0
        return cluster
    }

    /// Runs the processor and the endpoint as one service group until a signal or a failure.
    private func serve(_ configuration: ProcessorConfiguration, loader: SettingsLoader, logger: Logger) async throws {
        let registry = PrometheusCollectorRegistry()
        MetricsExposition.registerBuildInfo(ZoneStreamVersion.labels, in: registry)
        let processor = ZoneProcessor(
            configuration: configuration, logger: logger,
            metricsFactory: MetricsExposition.makeFactory(registry: registry))
        var services: [any Service] = []
        if loader.boolean("http.enabled") {
            services.append(httpServer(loader: loader, processor: processor, registry: registry, logger: logger))
        }
        services.append(BlockingService.processor(processor))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    .init(
                        service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let budget = ShutdownBudget(seconds: loader.integer("shutdown_timeout_s"), logger: logger)
        defer { withExtendedLifetime(budget) {} }
        do {
            try await group.run()
        } catch  where "\(error)".contains("bind(") {
            throw SettingsError(
                description: PortCheck.bindFailure(
                    host: loader.string("http.host"), port: loader.integer("http.port"), error: "\(error)"))
        }
    }

    private func httpServer(
        loader: SettingsLoader, processor: ZoneProcessor, registry: PrometheusCollectorRegistry, logger: Logger
    ) -> some Service {
        let token = loader.string("http.token")
        let settings = OperatorServer.Settings(
            host: loader.string("http.host"), port: loader.integer("http.port"),
            board: BoardSettings(
                updateInterval: .milliseconds(loader.integer("http.board_interval_ms")),
                maxSessions: loader.integer("http.board_max_sessions"),
                maxClients: loader.integer("http.max_board_clients")),
            limits: EndpointLimits(
                headerTimeoutMs: loader.integer("http.header_timeout_ms"),
                idleTimeoutSeconds: loader.integer("http.idle_timeout_s"),
                maxConnections: loader.integer("http.max_connections")),
            accessToken: token.isEmpty ? nil : token)
        return OperatorServer.service(processor: processor, registry: registry, settings: settings, logger: logger)
    }
}

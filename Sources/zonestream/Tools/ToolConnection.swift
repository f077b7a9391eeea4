import Logging
import ZoneKafka
import ZoneProcessor

/// What every operator tool starts from: the settings (as `run` reads them), the processor
/// configuration they describe, a logger for warnings only, and a broker that answered.
struct ToolConnection {
    let loader: SettingsLoader
    let configuration: ProcessorConfiguration
    let logger: Logger

    /// Refuses without `kafka.bootstrap_servers` (naming `tool`), and waits at most
    /// `kafka.connect_timeout_s` for a broker to answer.
    init(settings: SettingsOptions, tool: String) throws {
        loader = try settings.load()
        configuration = try loader.processorConfiguration(bootstrapServers: loader.string("kafka.bootstrap_servers"))
        guard !configuration.kafka.bootstrapServers.isEmpty else {
            throw SettingsError(description: "\(tool) needs kafka.bootstrap_servers (--bootstrap-servers)")
        }
        logger = Logs.bootstrap(level: "warning", format: .text)
        try BrokerUnavailable.require(
            using: try KafkaProducer(configuration: configuration.kafka),
            bootstrapServers: configuration.kafka.bootstrapServers,
            timeoutS: loader.integer("kafka.connect_timeout_s"), setting: "kafka.connect_timeout_s")
    }
}

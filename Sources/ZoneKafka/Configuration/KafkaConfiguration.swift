import CRdKafka
public import Logging

/// Client configuration: a few typed settings plus a raw pass-through map for any librdkafka
/// property (SASL, TLS, tuning). Settings left nil are never written, so librdkafka's
/// defaults stand.
public struct KafkaConfiguration: Sendable {
    /// `bootstrap.servers`, e.g. `127.0.0.1:9092`.
    public var bootstrapServers: String
    /// `client.id`.
    public var clientID: String?
    /// Any other librdkafka property, written last so it wins over the typed ones.
    public var properties: [String: String]
    /// Where librdkafka's own log lines of the clients made with this configuration go (nil:
    /// a `librdkafka` logger).
    public var logger: Logger?

    public init(bootstrapServers: String, clientID: String? = nil, properties: [String: String] = [:]) {
        self.bootstrapServers = bootstrapServers
        self.clientID = clientID
        self.properties = properties
    }

    /// Checks every property with librdkafka (unknown names, bad values) without creating a
    /// client: settings are refused before anything starts.
    public func validate() throws(KafkaError) {
        rd_kafka_conf_destroy(try makeNativeConfiguration(defaults: [:]))
    }

    /// Builds an `rd_kafka_conf_t` with `defaults` (the component's own settings) below
    /// the typed and raw settings. The caller owns the result until it passes it to rd_kafka_new.
    func makeNativeConfiguration(defaults: [String: String]) throws(KafkaError) -> OpaquePointer {
        guard let conf = rd_kafka_conf_new() else { throw KafkaError(message: "out of memory", operation: "conf") }
        LibrdkafkaLog.install(on: conf)
        var settings = defaults
        settings["bootstrap.servers"] = bootstrapServers
        if let clientID { settings["client.id"] = clientID }
        settings.merge(properties) { _, raw in raw }
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            var errorText = [CChar](repeating: 0, count: 512)
            let result = rd_kafka_conf_set(conf, key, value, &errorText, errorText.count)
            guard result == RD_KAFKA_CONF_OK else {
                rd_kafka_conf_destroy(conf)
                let text = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw KafkaError(message: text, operation: "setting \(key)")
            }
        }
        return conf
    }
}

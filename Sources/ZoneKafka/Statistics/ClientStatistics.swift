import CJansson

/// Reads what the processor uses of librdkafka's statistics JSON (every
/// `statistics.interval.ms`): each fetched partition's consumer lag, and whether any broker is
/// connected. Here, beside the client that writes the document, so only the Kafka layer knows
/// its shape.
public enum ClientStatistics {
    /// A partition whose lag is reported.
    public struct Lag: Hashable, Sendable {
        public let topic: String
        public let partition: Int32

        public init(topic: String, partition: Int32) {
            self.topic = topic
            self.partition = partition
        }
    }

    /// `topics.<topic>.partitions.<n>.consumer_lag` for partitions being fetched. librdkafka
    /// reports -1 while it does not know, and keeps an internal partition -1: both are skipped.
    public static func lags(_ json: String) -> [Lag: Int64] {
        guard let root = json_loads(json, 0, nil) else { return [:] }
        defer { json_decref(root) }
        var lags: [Lag: Int64] = [:]
        guard let topics = json_object_get(root, "topics") else { return [:] }
        forEachMember(topics) { topic, topicValue in
            guard let partitions = json_object_get(topicValue, "partitions") else { return }
            forEachMember(partitions) { _, entry in
                let partition = json_integer_value(json_object_get(entry, "partition"))
                let lag = json_integer_value(json_object_get(entry, "consumer_lag"))
                let fetchState = json_string_value(json_object_get(entry, "fetch_state")).map { String(cString: $0) }
                guard partition >= 0, lag >= 0, fetchState == "active" else { return }
                lags[Lag(topic: topic, partition: Int32(partition))] = Int64(lag)
            }
        }
        return lags
    }

    /// Whether any broker the client knows is connected (`brokers.<name>.state` is `UP`), or
    /// nil when the document lists no broker.
    public static func anyBrokerUp(_ json: String) -> Bool? {
        guard let root = json_loads(json, 0, nil) else { return nil }
        defer { json_decref(root) }
        guard let brokers = json_object_get(root, "brokers") else { return nil }
        var known = 0
        var up = false
        forEachMember(brokers) { _, broker in
            known += 1
            if let state = json_string_value(json_object_get(broker, "state")), String(cString: state) == "UP" {
                up = true
            }
        }
        return known == 0 ? nil : up
    }

    private static func forEachMember(
        _ object: UnsafeMutablePointer<json_t>, _ body: (String, UnsafeMutablePointer<json_t>) -> Void
    ) {
        var iterator = json_object_iter(object)
        while let current = iterator {
            if let key = json_object_iter_key(current), let value = json_object_iter_value(current) {
                body(String(cString: key), value)
            }
            iterator = json_object_iter_next(object, current)
        }
    }
}

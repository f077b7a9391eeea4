import CJansson
import CoreMetrics
import Synchronization

/// Turns librdkafka's statistics (JSON, every `statistics.interval.ms`) into one
/// `zonestream_consumer_lag{topic,partition}` gauge per partition this instance consumes:
/// how many records it is behind the partition's end. A partition that is no longer assigned
/// has its gauge removed, so a moved partition is reported once, by its new owner.
final class ConsumerLagReporter: Sendable {
    private let factory: any MetricsFactory
    /// Gauges by topic and partition; touched only on the statistics callback (every few seconds).
    private let gauges = Mutex<[PartitionKey: Gauge]>([:])

    struct PartitionKey: Hashable {
        let topic: String
        let partition: Int32
    }

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Reads the lag of every assigned partition out of one statistics document.
    func report(statisticsJSON: String) {
        let lags = Self.consumerLags(statisticsJSON)
        gauges.withLock { gauges in
            for (key, lag) in lags {
                let gauge = gauges[key] ?? Gauge(
                    label: "zonestream_consumer_lag",
                    dimensions: [("topic", key.topic), ("partition", "\(key.partition)")], factory: factory)
                gauges[key] = gauge
                gauge.record(lag)
            }
            for key in Array(gauges.keys) where lags[key] == nil {
                gauges.removeValue(forKey: key)?.destroy()
            }
        }
    }

    /// `topics.<topic>.partitions.<n>.consumer_lag` for partitions being fetched (librdkafka
    /// reports -1 while it does not know, and keeps an internal partition -1: both skipped).
    static func consumerLags(_ json: String) -> [PartitionKey: Int64] {
        guard let root = json_loads(json, 0, nil) else { return [:] }
        defer { json_decref(root) }
        var lags: [PartitionKey: Int64] = [:]
        guard let topics = json_object_get(root, "topics") else { return [:] }
        forEachMember(topics) { topic, topicValue in
            guard let partitions = json_object_get(topicValue, "partitions") else { return }
            forEachMember(partitions) { _, entry in
                let partition = json_integer_value(json_object_get(entry, "partition"))
                let lag = json_integer_value(json_object_get(entry, "consumer_lag"))
                let fetchState = json_string_value(json_object_get(entry, "fetch_state")).map { String(cString: $0) }
                guard partition >= 0, lag >= 0, fetchState == "active" else { return }
                lags[PartitionKey(topic: topic, partition: Int32(partition))] = Int64(lag)
            }
        }
        return lags
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

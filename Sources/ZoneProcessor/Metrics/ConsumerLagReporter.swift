import CoreMetrics
import NIOConcurrencyHelpers
import Synchronization
import ZoneCodecs
import ZoneKafka

/// Turns librdkafka's statistics (JSON, every `statistics.interval.ms`) into one
/// `zonestream_consumer_lag{topic,partition}` gauge per partition this instance consumes:
/// how many records it is behind the partition's end. A partition that is no longer assigned
/// has its gauge removed, so a moved partition is reported once, by its new owner.
final class ConsumerLagReporter: Sendable {
    private let factory: any MetricsFactory
    /// Gauges by topic and partition; touched only on the statistics callback (every few seconds).
    private let gauges = NIOLockedValueBox<[ClientStatistics.Lag: Gauge]>([:])
    /// The records this instance is behind, summed over its partitions, at the last report
    /// (for the progress line).
    let totalLag = Atomic<Int>(0)

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Reads the lag of every assigned partition out of one statistics document.
    func report(statisticsJSON: String) {
        let lags = ClientStatistics.lags(statisticsJSON)
        totalLag.store(lags.values.reduce(0) { $0 + Int(clamping: $1) }, ordering: .relaxed)
        gauges.withLockedValue { gauges in
            for (key, lag) in lags {
                let gauge =
                    gauges[key]
                    ?? Gauge(
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
}

import Foundation
public import Prometheus
import ZoneProcessor

/// What `GET /metrics` answers: the Prometheus registry the processor exports into, with a
/// `# HELP` line for every metric (from ``MetricCatalogue``; swift-metrics carries no help
/// text) and the standard process metrics, read from /proc at each scrape.
public enum MetricsExposition {
    /// A metrics factory over `registry` with buckets chosen for ZoneStream's histograms.
    public static func makeFactory(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.valueHistogramBuckets["zonestream_sample_age_seconds"] =
            [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]
        factory.durationHistogramBuckets["zonestream_delivery_duration_seconds"] =
            [
                .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5),
                .seconds(10), .seconds(30),
            ]
        factory.durationHistogramBuckets["zonestream_batch_duration_seconds"] =
            [
                .microseconds(100), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
            ]
        return factory
    }

    /// Registers `zonestream_build_info{labels} 1` (help text from the catalogue).
    public static func registerBuildInfo(_ labels: [(String, String)], in registry: PrometheusCollectorRegistry) {
        // No help text here: the exposition adds the catalogue's to every metric.
        registry.makeGauge(
            descriptor: MetricNameDescriptor(metricName: "zonestream_build_info", unitName: "", helpText: ""),
            labels: labels
        )
        .set(to: 1.0)
    }

    /// The exposition text: the registry's, with help lines added, then readiness, the
    /// endpoint's clients (`clients`: connections and board streams open now) and the process
    /// metrics.
    static func text(
        registry: PrometheusCollectorRegistry, readiness: Readiness, embeddedBroker: Bool = false,
        clients: (connections: Int, boardStreams: Int) = (0, 0)
    ) -> String {
        let emitted = registry.emitToString()
        // One string appended to in place: a string per line was most of a scrape's
        // allocations, and a scrape every 100 ms (the benchmarks') a percent of the CPU.
        var text = ""
        text.reserveCapacity(emitted.utf8.count + 4096)
        func appendHelp(_ name: Substring, _ helpText: String) {
            text += "# HELP "
            text += name
            text += " "
            text += helpText
            text += "\n"
        }
        // Lines split on their bytes: split on characters (grapheme breaking for every one of
        // the text's characters) was two thirds of a scrape's instructions.
        for bytes in emitted.utf8.split(separator: UInt8(ascii: "\n")) {
            let line = Substring(bytes)
            if bytes.starts(with: "# TYPE ".utf8) {
                let name = line.dropFirst(7).prefix { $0 != " " }
                if let helpText = MetricCatalogue.help[String(name)] { appendHelp(name, helpText) }
            }
            text += line
            text += "\n"
        }
        func metric(_ name: String, _ type: String, _ value: String) {
            appendHelp(name[...], MetricCatalogue.help[name] ?? name)
            text += "# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        metric("zonestream_ready", "gauge", readiness.isReady ? "1" : "0")
        metric("zonestream_processing", "gauge", readiness.isProcessing ? "1" : "0")
        metric("zonestream_embedded_broker", "gauge", embeddedBroker ? "1" : "0")
        metric("zonestream_http_connections", "gauge", String(clients.connections))
        metric("zonestream_board_clients", "gauge", String(clients.boardStreams))
        let process = ProcessStatistics.read()
        metric("process_cpu_seconds_total", "counter", String(process.cpuSeconds))
        metric("process_resident_memory_bytes", "gauge", String(process.residentBytes))
        metric("process_virtual_memory_bytes", "gauge", String(process.virtualBytes))
        metric("process_open_fds", "gauge", String(process.openFileDescriptors))
        metric("process_max_fds", "gauge", String(process.maxFileDescriptors))
        metric("process_start_time_seconds", "gauge", String(process.startTimeSeconds))
        metric("process_threads", "gauge", String(process.threads))
        return text
    }
}

import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneKafka
import ZoneProcessor

extension Benchmark {
    /// The synthetic traffic's figures: the bare consumer's rate, ZoneStream's without and
    /// with live views, and ZoneStream's timeline.
    struct SyntheticFigures {
        var ceiling: Double
        var rate: Double
        var viewsRate: Double
        var timeline: [[Double]]
    }

    /// The ceiling (a bare consumer batch-consuming the records and doing nothing), then
    /// ZoneStream end to end with at-least-once commits, live views off and on.
    static func measureSynthetic(
        base: ProcessorConfiguration, topics: Topics, changelogPrefix: String, records: Int, logger: Logger
    ) throws -> SyntheticFigures {
        let ceiling = try BareConsumer.measure(
            kafka: base.kafka, topic: topics.workoutEvents, records: records, logger: logger
        ).cost.recordsPerSecond
        print(String(format: "bench: bare consumer %.0f records/s", ceiling))
        let plain = BenchProcessorRun(
            base: base, topics: topics, group: "bench-zonestream", changelogPrefix: changelogPrefix, liveViews: false)
        let (cost, timeline, _) = try throughput(configuration: plain.configuration, records: records, logger: logger)
        let rate = cost.recordsPerSecond
        print(String(format: "bench: ZoneStream %.0f records/s (%.2f of the ceiling)", rate, rate / ceiling))
        let withViews = BenchProcessorRun(
            base: base, topics: topics, group: "bench-zonestream-live-views", changelogPrefix: changelogPrefix,
            liveViews: true)
        let viewsRate = try throughput(configuration: withViews.configuration, records: records, logger: logger)
            .cost.recordsPerSecond
        print(String(format: "bench: with live views %.0f records/s (%.2f of without)", viewsRate, viewsRate / rate))
        return SyntheticFigures(ceiling: ceiling, rate: rate, viewsRate: viewsRate, timeline: timeline)
    }

    /// Writes `records` records of synthetic sessions to `topic`: sessions of samples,
    /// round-robin, so every partition is busy.
    static func preloadSynthetic(records: Int, topic: String, producer: KafkaProducer) throws {
        let sessions = max(1, records / 200)
        var produced = 0
        let preloadStart = Date()
        for step in 0... {
            for index in 0..<sessions where produced < records {
                let id = BenchTraffic.sessionID(index, prefix: "t")
                let ts = 1_717_200_000_000 + Int64(step) * 1000
                let value = step == 0 ? BenchTraffic.start(id, ts: ts) : BenchTraffic.sample(id, ts: ts, step: step)
                try producer.produce(topic: topic, key: Array(id.utf8), value: value, tracker: nil)
                produced += 1
            }
            if produced >= records { break }
        }
        try producer.flush(timeoutMs: 120_000)
        print(String(format: "bench: preloaded in %.1f s", Date().timeIntervalSince(preloadStart)))
    }

    /// Runs a processor over the preloaded records; returns records/s, the timeline and the
    /// processor's counters.
    static func throughput(configuration: ProcessorConfiguration, records: Int, logger: Logger) throws
        -> (cost: ClientCost, timeline: [[Double]], metrics: ProcessorMetrics)
    {
        let processor = ZoneProcessor(configuration: configuration, logger: logger)
        let failure = NIOLockedValueBox<String?>(nil)
        let thread = JoinableThread(name: "zs-bench-run") {
            do { try processor.run() } catch { failure.withLockedValue { $0 = "\(error)" } }
        }
        var timeline = ThroughputTimeline()
        var window = RateWindow(total: records)
        let deadline = Date().addingTimeInterval(600)
        while processor.metrics.recordsIn.load(ordering: .relaxed) < records && Date() < deadline {
            if let error = failure.withLockedValue({ $0 }) { throw BenchError(error) }
            // Check every 2 ms, so the window's edges are found to within a few thousand records.
            Thread.sleep(forTimeInterval: 0.002)
            let count = processor.metrics.recordsIn.load(ordering: .relaxed)
            window.note(count: count)
            timeline.note(count: count, final: count >= records)
        }
        let cost = window.cost()
        // Leaving the group at shutdown is not part of the rate.
        while processor.outputsInFlight > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        processor.stop()
        thread.join()
        return (cost, timeline.points, processor.metrics)
    }
}

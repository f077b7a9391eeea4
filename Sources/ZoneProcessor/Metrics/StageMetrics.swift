import CoreMetrics
public import Synchronization
import ZoneKafka

/// What one of the processor's consumers reports beside the workers' own counters: the
/// person stage (`people`) and the class stage (`classes`) count the summaries they produce,
/// their restores and their consumer lag; every producer, the workers' too, reports how long
/// its outputs took from produce to the broker's acknowledgement.
public final class StageMetrics: Sendable {
    /// `workers`, `people` or `classes`: the `stage` label of its metrics.
    public let stage: String
    /// Summaries produced (person or class summaries; none for the workers).
    public let summariesOut = Atomic<Int>(0)
    /// Keys (persons, classes) read back from the stage's changelog by its restores.
    public let keysRestored = Atomic<Int>(0)
    /// Every delivery tracker of this stage's outputs reports into it.
    let deliveries = DeliveryLatency()
    /// The lag of the partitions this stage's consumer owns, from its librdkafka statistics.
    let lag: ConsumerLagReporter
    private let deliveryDuration: Timer
    private let summaries: Counter?
    private let restored: Counter?
    private let restoreDuration: Timer?

    /// `summaryType`: a stage's output `type` (`person_summary`), for
    /// `zonestream_events_out_total`; nil for the workers, whose outputs and restores
    /// ``ProcessorMetrics`` counts.
    init(stage: String, summaryType: String?, factory: any MetricsFactory) {
        self.stage = stage
        lag = ConsumerLagReporter(factory: factory)
        let label = [("stage", stage)]
        deliveryDuration = Timer(label: "zonestream_delivery_duration_seconds", dimensions: label, factory: factory)
        summaries = summaryType.map {
            Counter(label: "zonestream_events_out_total", dimensions: [("type", $0)], factory: factory)
        }
        restored =
            summaryType == nil
            ? nil : Counter(label: "zonestream_stage_keys_restored_total", dimensions: label, factory: factory)
        restoreDuration =
            summaryType == nil
            ? nil : Timer(label: "zonestream_stage_restore_duration_seconds", dimensions: label, factory: factory)
    }

    /// Once per batch or commit: the longest produce-to-acknowledgement time of the outputs
    /// acknowledged since the last call, if any were.
    func recordDeliveries() {
        guard let microseconds = deliveries.takeLongest() else { return }
        deliveryDuration.recordMicroseconds(microseconds)
    }

    func countSummary() {
        summariesOut.add(1, ordering: .relaxed)
        summaries?.increment()
    }

    /// One partition of the stage's table restored: `keys` read back in `nanoseconds`.
    func countRestore(keys: Int, nanoseconds: UInt64) {
        keysRestored.add(keys, ordering: .relaxed)
        restored?.increment(by: keys)
        restoreDuration?.recordNanoseconds(Int64(clamping: nanoseconds))
    }
}

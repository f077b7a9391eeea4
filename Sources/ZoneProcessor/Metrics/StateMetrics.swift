import CoreMetrics
import Dispatch
import NIOConcurrencyHelpers
public import Synchronization

/// How state moves with partitions: restores under way, rebalances and the warm standbys.
/// Atomics that readiness and tests read in-process, and the swift-metrics handles exported.
public final class StateMetrics: Sendable {
    /// Changelog records the restores under way have still to read.
    public let restoreRecordsRemaining = Atomic<Int>(0)
    /// Changelog records read by restores, in all.
    public let restoreRecordsRead = Atomic<Int>(0)
    public let standbyPartitions = Atomic<Int>(0)
    public let standbySessions = Atomic<Int>(0)
    public let standbyRecordsBehind = Atomic<Int>(0)
    private let restores = NIOLockedValueBox<[Int32: Restore]>([:])
    private let exported: Exported

    /// One partition's restore under way.
    public struct Restore: Sendable {
        public let partition: Int32
        /// Changelog records still to read.
        public var recordsLeft: Int64
        public var recordsRead = 0
        let startedNs = DispatchTime.now().uptimeNanoseconds

        /// Records read per second so far (0 at the start).
        public var recordsPerSecond: Double {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - startedNs) / 1e9
            return seconds > 0 ? Double(recordsRead) / seconds : 0
        }
    }

    init(factory: any MetricsFactory) {
        exported = Exported(factory: factory)
    }

    func reportStandbys(partitions: Int, sessions: Int, recordsBehind: Int64) {
        standbyPartitions.store(partitions, ordering: .relaxed)
        standbySessions.store(sessions, ordering: .relaxed)
        standbyRecordsBehind.store(Int(recordsBehind), ordering: .relaxed)
        exported.standbyPartitions.record(partitions)
        exported.standbySessions.record(sessions)
        exported.standbyRecordsBehind.record(recordsBehind)
    }

    /// The restore of `partition` read `records` more and has `left` to read.
    func restoreProgressed(partition: Int32, read records: Int, left: Int64) {
        if records > 0 {
            restoreRecordsRead.add(records, ordering: .relaxed)
            exported.restoreRecordsRead.increment(by: records)
        }
        let remaining = restores.withLockedValue { restores in
            restores[partition, default: Restore(partition: partition, recordsLeft: left)].recordsLeft = left
            restores[partition]?.recordsRead += records
            return restores.values.reduce(0) { $0 + Int($1.recordsLeft) }
        }
        restoreRecordsRemaining.store(remaining, ordering: .relaxed)
        exported.restoreRecordsRemaining.record(remaining)
    }

    /// The restore of `partition` ended (read, failed or given up).
    func restoreEnded(partition: Int32) {
        let remaining = restores.withLockedValue { restores in
            restores[partition] = nil
            return restores.values.reduce(0) { $0 + Int($1.recordsLeft) }
        }
        restoreRecordsRemaining.store(remaining, ordering: .relaxed)
        exported.restoreRecordsRemaining.record(remaining)
    }

    /// The restores under way, by partition.
    public var restoresUnderWay: [Restore] {
        restores.withLockedValue { Array($0.values) }.sorted { $0.partition < $1.partition }
    }

    func recordRebalance(milliseconds: UInt64) {
        exported.rebalanceDuration.recordMilliseconds(milliseconds)
    }

    private struct Exported: Sendable {
        let restoreRecordsRemaining: Gauge
        let restoreRecordsRead: Counter
        let rebalanceDuration: Timer
        let standbyPartitions: Gauge
        let standbySessions: Gauge
        let standbyRecordsBehind: Gauge

        init(factory: any MetricsFactory) {
            func gauge(_ name: String) -> Gauge { Gauge(label: name, dimensions: [], factory: factory) }
            restoreRecordsRemaining = gauge("zonestream_restore_records_remaining")
            restoreRecordsRead = Counter(label: "zonestream_restore_records_total", dimensions: [], factory: factory)
            rebalanceDuration = Timer(label: "zonestream_rebalance_duration_seconds", dimensions: [], factory: factory)
            standbyPartitions = gauge("zonestream_standby_partitions")
            standbySessions = gauge("zonestream_standby_sessions")
            standbyRecordsBehind = gauge("zonestream_standby_records_behind")
        }
    }
}

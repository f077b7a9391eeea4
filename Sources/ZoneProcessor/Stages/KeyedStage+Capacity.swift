import Foundation
import Logging
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// The cap on keys (`max_persons`, `max_classes`): the stage holds every key of its partitions,
/// so a gateway that puts a device or session id in `person` or `class` would otherwise grow it
/// without end.
extension KeyedStage {
    /// Whether a new key fits: under the cap, or once idle keys are removed (at most once a
    /// minute). Otherwise the record is dead-lettered with the aggregation's limit reason,
    /// counted and logged. Only the cap removes keys: a summary counts back from the key's
    /// own latest item, not from now, so removing them sooner would change what a replay of
    /// older workouts produces.
    func hasRoom(forNewKey key: String, input: InputRecord) -> Bool {
        if keyCount < aggregation.role.capacity { return true }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        if now - lastIdleSweepMs >= 60_000 {
            lastIdleSweepMs = now
            removeIdleKeys(now: now)
        }
        if keyCount < aggregation.role.capacity { return true }
        aggregation.role.countRefused(in: metrics)
        limitWarnings.log(to: logger, metadata: ["limit": .stringConvertible(aggregation.role.capacity)])
        deadLetter(
            Rejection(
                aggregation.role.limitReason,
                "the \(aggregation.role.name) stage holds its most \(aggregation.role.keysName) (\(aggregation.role.capacity)), \(aggregation.role.idleRule)"
            ), input: input)
        return false
    }

    var keyCount: Int { tables.values.reduce(0) { $0 + $1.count } }

    /// Removes idle keys from the tables; their changelog records become tombstones with the
    /// batch's changed states.
    private func removeIdleKeys(now: Int64) {
        for (partition, table) in tables {
            let idle = table.filter { aggregation.isIdle($0.value, now: now) }.map(\.key)
            guard !idle.isEmpty else { continue }
            for key in idle { tables[partition]?[key] = nil }
            changedLogs[partition, default: []].formUnion(idle)
            logger.info(
                "idle keys removed to stay within the stage's cap",
                metadata: [
                    "stage": "\(aggregation.role.name)", "partition": .stringConvertible(partition),
                    "keys": .stringConvertible(idle.count),
                ])
        }
        aggregation.role.recordKeys(keyCount, in: metrics)
    }
}

import Dispatch
import Foundation
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Session starts held until the tables are read as of them (``TableJoin``): the held
/// session's records wait in order, the worker's other sessions go on.
extension WorkerLoop {
    /// Holds `record` back when its session is held already, or when it starts a session (or
    /// names a live session's person) at an offset the tables do not cover yet. The partition's
    /// held sessions that may go now go first: a partition's records are applied in their
    /// order, but for the sessions the tables do not cover yet (a session held at a lower
    /// offset must not start after a later one that the coverage let through, or a cap on live
    /// sessions would admit them in the wrong order).
    mutating func holdsBack(
        _ event: WorkoutEvent, _ record: KafkaRecord, slot: Dictionary<Int32, PartitionState>.Index
    ) -> Bool {
        let partition = record.partition
        if !partitions.values[slot].parked.isEmpty {
            releaseHeld(partition: partition, nowNs: DispatchTime.now().uptimeNanoseconds)
        }
        if partitions.values[slot].parked.isHolding(event.session) {
            join.hold(later: heldCopy(of: record, session: event.session), state: &partitions.values[slot])
            return true
        }
        guard partitions.values[slot].store.readsTables(for: event),
            join.mustHold(offset: record.offset, partition: partition, state: &partitions.values[slot])
        else { return false }
        join.hold(
            first: heldCopy(of: record, session: event.session), partition: partition, state: &partitions.values[slot])
        if join.heldBytes > TableJoin.maxHeldBytes { waitForHeldRoom() }
        return true
    }

    /// Holds back a record that could not be decoded when its key names a held session.
    mutating func holdsBackRejected(_ record: KafkaRecord, slot: Dictionary<Int32, PartitionState>.Index) -> Bool {
        guard let key = record.key else { return false }
        let session = String(decoding: key, as: UTF8.self)
        guard partitions.values[slot].parked.isHolding(session) else { return false }
        join.hold(later: heldCopy(of: record, session: session), state: &partitions.values[slot])
        return true
    }

    /// Applies the held sessions that may go now (covered, or waited `join_wait_ms`), each
    /// session's records in their order.
    mutating func releaseHeldSessions() {
        guard join.heldBytes > 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        for partition in Array(partitions.keys) { releaseHeld(partition: partition, nowNs: now) }
    }

    /// Applies the held sessions of `partition` that may go at `nowNs`.
    private mutating func releaseHeld(partition: Int32, nowNs: UInt64) {
        guard let slot = partitions.index(forKey: partition), !partitions.values[slot].parked.isEmpty else { return }
        let released = join.release(partition: partition, state: &partitions.values[slot], nowNs: nowNs)
        counts.released += released.count
        for record in released { applyReleased(record, partition: partition) }
    }

    /// Past ``TableJoin/maxHeldBytes``: waits for the coverage (at most `join_wait_ms`, after
    /// which held sessions go on regardless) rather than hold more.
    private mutating func waitForHeldRoom() {
        while join.heldBytes > TableJoin.maxHeldBytes && !context.isStopping() {
            releaseHeldSessions()
            if join.heldBytes > TableJoin.maxHeldBytes { Thread.sleep(forTimeInterval: 0.0002) }
        }
    }

    private func heldCopy(of record: KafkaRecord, session: String) -> ParkedSessions.Record {
        ParkedSessions.Record(
            session: session, offset: record.offset, key: record.key.map { Array($0) },
            value: record.value.map { Array($0) }, timestampMs: record.timestampMs, readAtMs: batchReadMs)
    }

    /// Applies a released record as it would have been applied when it came (it was decoded
    /// then; the same bytes decode the same way).
    private mutating func applyReleased(_ record: ParkedSessions.Record, partition: Int32) {
        guard let slot = partitions.index(forKey: partition) else { return }
        Self.withBytes(record.key, record.value) { key, value in
            let decoded = decoder.decode(
                value: value, key: key, recordTimestampMs: record.timestampMs, readAtMs: record.readAtMs)
            switch decoded {
            case .success(let event):
                if partitions.values[slot].parked.isHolding(event.session) {
                    join.hold(later: record, state: &partitions.values[slot])
                    return
                }
                apply(event, slot: slot, wallMs: partitions.values[slot].idleTime(at: WallClock.nowMs()))
            case .failure(let rejection):
                if let key, partitions.values[slot].parked.isHolding(String(decoding: key, as: UTF8.self)) {
                    join.hold(later: record, state: &partitions.values[slot])
                    return
                }
                outputs.reject(rejection)
            }
            produceOutputs(of: InputRecord(partition: partition, offset: record.offset, key: key, value: value))
        }
    }

    private static func withBytes(
        _ key: [UInt8]?, _ value: [UInt8]?, _ body: (UnsafeRawBufferPointer?, UnsafeRawBufferPointer?) -> Void
    ) {
        func lend(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> Void) {
            guard let bytes else { return body(nil) }
            bytes.withUnsafeBytes { body($0) }
        }
        lend(key) { key in lend(value) { value in body(key, value) } }
    }
}

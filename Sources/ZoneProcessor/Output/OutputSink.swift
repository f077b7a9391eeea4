import Foundation
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Encodes what the engine produces and hands it to the producer; one per worker.
/// Dead letters carry the input record being processed, set in ``current``.
struct OutputSink: SessionEventSink {
    /// The input record being processed; its buffers are valid only during that processing.
    struct CurrentRecord {
        var topic: String
        var partition: Int32
        var offset: Int64
        var key: UnsafeRawBufferPointer?
        var value: UnsafeRawBufferPointer?
    }

    let producer: KafkaProducer
    let topics: Topics
    /// The tracker of the current commit epoch; replaced when the epoch is sealed.
    var tracker: DeliveryTracker
    let metrics: ProcessorMetrics
    let budget: SessionBudget
    var current = CurrentRecord(topic: "", partition: 0, offset: 0)
    /// Zone changes are the frequent output: written without jansson or allocation.
    var zoneChangeWriter = ZoneChangeWriter()
    /// Outputs counted locally and published to ``metrics`` once per batch (no shared
    /// cache line written per record).
    var zoneChangeCount = 0
    /// The first produce failure; the worker stops on it (nothing after it may be committed).
    var failure: KafkaError?

    mutating func zoneChanged(_ change: ZoneChange, in session: borrowing WorkoutSession) {
        guard let configuration = session.configuration(for: change.quantity) else { return }
        let value = zoneChangeWriter.write(change, session: session.id, person: session.person, configuration: configuration)
        var id = session.id
        id.withUTF8 { key in
            value.withUnsafeBytes { value in
                produce(topics.zoneChanges, key: UnsafeRawBufferPointer(key), value: value)
            }
        }
        zoneChangeCount += 1
    }

    mutating func workoutFinished(_ summary: WorkoutSummary) {
        produce(topics.workoutsFinished, key: Array(summary.session.utf8), value: OutputEncoder.workoutFinished(summary))
        metrics.countWorkoutFinished()
        budget.release(1)
    }

    mutating func admitSession(_ id: String) -> Bool { budget.tryAdmit() }

    /// Writes one changelog record (a nil value is a tombstone) to the input's partition.
    mutating func changelog(key: String, value: [UInt8]?, partition: Int32) {
        do {
            try producer.produce(topic: topics.changelog, key: Array(key.utf8), value: value, tracker: tracker, partition: partition)
        } catch {
            if failure == nil { failure = error }
        }
    }

    mutating func rejected(_ rejection: Rejection) {
        let record = OutputEncoder.deadLetter(
            rejection, topic: current.topic, partition: current.partition, offset: current.offset, key: current.key,
            value: current.value)
        produce(topics.deadLetters, key: record.key, value: record.value)
        metrics.countDeadLetter(rejection.reason)
    }

    private mutating func produce(_ topic: String, key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer) {
        do {
            try producer.produce(topic: topic, key: key, value: value, tracker: tracker)
        } catch {
            if failure == nil { failure = error }
        }
    }

    private mutating func produce(_ topic: String, key: [UInt8]?, value: [UInt8]) {
        do {
            try producer.produce(topic: topic, key: key, value: value, tracker: tracker)
        } catch {
            if failure == nil { failure = error }
        }
    }
}

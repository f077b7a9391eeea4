import Foundation
import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// The finished workouts' copies for the person and class stages: held with their inputs and
/// produced together when the commit epoch is sealed.
extension OutputSink {
    /// Holds a finished workout's copy for a stage, with the input that finished it.
    mutating func hold(_ value: [UInt8], to topic: KafkaProducer.Topic, key: String, session: String) {
        heldCopies.append(
            HeldStageCopy(
                topic: topic, key: key, session: session, value: value, partition: current.partition,
                offset: current.offset,
                input: MessageInput(key: current.key.map { Array($0) }, value: current.value.map { Array($0) })))
    }

    /// Produces the finished workouts' copies held since the last seal to the stages, keyed by
    /// person or class, into the commit epoch being sealed (its tracker, its transaction), each
    /// with its own input. Held rather than produced with the workout: the copies of a busy
    /// gym spread over the repartition topics' partitions a few at a time, and produced as
    /// they came each partition's batch held one or two records, so the copies took as many
    /// produce requests as all the zone changes; produced together they travel in one batch
    /// per partition. The stages need them within the commit interval, not at once.
    mutating func releaseStageCopies() {
        guard !heldCopies.isEmpty else { return }
        let held = heldCopies
        heldCopies.removeAll(keepingCapacity: true)
        for copy in held {
            copy.input.withBuffers { key, value in
                begin(partition: copy.partition, offset: copy.offset, key: key, value: value)
                produceOutput(to: copy.topic, key: copy.key, session: copy.session) {
                    copy.value.withUnsafeBytes($0)
                }
            }
        }
        // The lent buffers are gone.
        beginWithoutRecord(partition: current.partition)
    }
}

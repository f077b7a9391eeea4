import ZoneKafka

/// The finished workouts' copies for the person and class stages, held with their inputs and
/// produced together when the commit epoch is sealed (``OutputProducer/releaseStageCopies()``).
///
/// Held rather than produced with the workout: the copies of a busy gym spread over the
/// repartition topics' partitions a few at a time, and produced as they came each partition's
/// batch held one or two records, so the copies took as many produce requests as all the zone
/// changes; produced together they travel in one batch per partition. The stages need them
/// within the commit interval, not at once. At most two per session finished in an interval.
struct StageCopies {
    /// A finished workout's copy for a stage, with the input that finished it.
    struct Copy {
        let topic: KafkaProducer.Topic
        /// The person or class.
        let key: String
        let session: String
        let value: [UInt8]
        let partition: Int32
        /// -1 when the session finished by its idle timeout (no input record).
        let offset: Int64
        /// The input's bytes, copied: the input record is gone by the seal.
        let attachment: MessageAttachment
    }

    private var held: [Copy] = []

    /// Holds a copy for `topic`, made for `input`.
    mutating func hold(
        _ value: [UInt8], to topic: KafkaProducer.Topic, key: String, session: String, input: InputRecord
    ) {
        held.append(
            Copy(
                topic: topic, key: key, session: session, value: value, partition: input.partition,
                offset: input.offset,
                attachment: MessageAttachment(key: input.key.map { Array($0) }, value: input.value.map { Array($0) })))
    }

    /// The copies held since the last call, oldest first; holds none after.
    mutating func take() -> [Copy] {
        defer { held.removeAll(keepingCapacity: true) }
        return held
    }
}

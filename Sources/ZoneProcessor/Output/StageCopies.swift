import ZoneKafka

/// The finished workouts' copies for the person and class stages, held with their inputs'
/// coordinates and produced together when the commit epoch is sealed (``OutputProducer/releaseStageCopies()``).
///
/// Held rather than produced with the workout: the copies of a busy gym spread over the
/// repartition topics' partitions a few at a time, and produced as they came each partition's
/// batch held one or two records, so the copies took as many produce requests as all the zone
/// changes; produced together they travel in one batch per partition. The stages need them
/// within the commit interval, not at once. At most two per session finished in an interval.
struct StageCopies {
    /// A finished workout's copy for a stage, with where the input that finished it lies.
    struct Copy {
        let topic: KafkaProducer.Topic
        /// The person or class.
        let key: String
        let value: [UInt8]
        let partition: Int32
        /// -1 when the session finished by its idle timeout (no input record).
        let offset: Int64
    }

    private var held: [Copy] = []

    /// Holds a copy for `topic`, made for `input`.
    mutating func hold(_ value: [UInt8], to topic: KafkaProducer.Topic, key: String, input: InputRecord) {
        held.append(Copy(topic: topic, key: key, value: value, partition: input.partition, offset: input.offset))
    }

    /// The copies held since the last call, oldest first; holds none after.
    mutating func take() -> [Copy] {
        defer { held.removeAll(keepingCapacity: true) }
        return held
    }
}

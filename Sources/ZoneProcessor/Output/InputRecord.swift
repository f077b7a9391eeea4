import ZoneKafka

/// The input record whose outputs are being produced: where it lies, and its bytes, lent for
/// one call (they belong to librdkafka's message and are not kept).
struct InputRecord {
    let partition: Int32
    /// -1 when no input record produced the outputs (sessions finished by their idle timeout).
    let offset: Int64
    let key: UnsafeRawBufferPointer?
    let value: UnsafeRawBufferPointer?

    /// Work that no input record causes (idle timeouts) in `partition`.
    static func none(partition: Int32) -> InputRecord {
        InputRecord(partition: partition, offset: -1, key: nil, value: nil)
    }

    /// Whether a record of the input topic produced the outputs.
    var exists: Bool { offset >= 0 }

    /// Where the input lies, for the messages of `kind` produced for it.
    func context(_ kind: OutputContext.Kind) -> OutputContext {
        OutputContext(kind: kind, inputTopic: .workoutEvents, inputPartition: partition, inputOffset: offset)
    }

    /// The input, copied (for a refusal); for work without a record, `session` stands in as
    /// its key.
    func origin(in topics: Topics, session: String) -> OutputOrigin {
        guard exists else {
            return OutputOrigin(
                .workoutEvents, of: topics, partition: partition, offset: -1, key: Array(session.utf8), value: nil)
        }
        return OutputOrigin(
            .workoutEvents, of: topics, partition: partition, offset: offset, key: key.map { Array($0) },
            value: value.map { Array($0) })
    }

    /// Lends the input's key and value for one produce call: the record's, or for work without
    /// a record, `session` as its key.
    func withBytes<Result>(
        session: String, _ body: (UnsafeRawBufferPointer?, UnsafeRawBufferPointer?) -> Result
    ) -> Result {
        guard !exists else { return body(key, value) }
        return Array(session.utf8).withUnsafeBytes { body($0, nil) }
    }
}

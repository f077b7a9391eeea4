import ZoneKafka

/// The input record whose outputs are being produced: which of the processor's topics it came
/// from, where it lies, and its bytes, lent for one call (they belong to librdkafka's message
/// and are not kept). Outputs keep only its coordinates (``context(_:)``).
struct InputRecord {
    let source: OutputContext.InputTopic
    let partition: Int32
    /// -1 when no input record produced the outputs (sessions finished by their idle timeout).
    let offset: Int64
    let key: UnsafeRawBufferPointer?
    let value: UnsafeRawBufferPointer?

    init(
        _ source: OutputContext.InputTopic = .workoutEvents, partition: Int32, offset: Int64,
        key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?
    ) {
        self.source = source
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
    }

    /// Work that no input record causes (idle timeouts) in `partition`.
    static func none(partition: Int32) -> InputRecord {
        InputRecord(partition: partition, offset: -1, key: nil, value: nil)
    }

    /// Where the input lies, for the messages of `kind` produced for it.
    func context(_ kind: OutputContext.Kind) -> OutputContext {
        OutputContext(kind: kind, inputTopic: source, inputPartition: partition, inputOffset: offset)
    }
}

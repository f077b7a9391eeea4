import ZoneKafka

/// The input record an output was produced for, put together when the broker refuses the
/// output, so that the input can be dead-lettered as `output_rejected`.
///
/// Nothing of it is made while outputs go out: its coordinates travel in each output's
/// ``OutputContext`` and its bytes in the producer's receipt (``MessageAttachment``), which is the
/// one allocation a message costs besides librdkafka's (a copied origin was one more per zone
/// change, freed by the delivery-report thread).
struct OutputOrigin: Sendable {
    /// Which of the processor's topics the input came from, and its name.
    let source: OutputContext.InputTopic
    let topic: String
    let partition: Int32
    /// -1 when no input record produced the output (a session finished by its idle timeout).
    let offset: Int64
    let key: [UInt8]?
    let value: [UInt8]?

    init(
        _ source: OutputContext.InputTopic, of topics: Topics, partition: Int32, offset: Int64, key: [UInt8]?,
        value: [UInt8]?
    ) {
        self.source = source
        topic = source.name(in: topics)
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
    }

    /// The origin of a message the broker refused; nil when the message carried no
    /// ``OutputContext``.
    init?(of failure: DeliveryFailure, topics: Topics) {
        guard let context = failure.context as? OutputContext else { return nil }
        self.init(
            context.inputTopic, of: topics, partition: context.inputPartition, offset: context.inputOffset,
            key: failure.attachment.key, value: failure.attachment.value)
    }

    /// The context of a message of `kind` produced for this input.
    func context(_ kind: OutputContext.Kind) -> OutputContext {
        OutputContext(kind: kind, inputTopic: source, inputPartition: partition, inputOffset: offset)
    }

    /// Its bytes, to produce with a message made for it.
    var attachment: MessageAttachment { MessageAttachment(key: key, value: value) }
}

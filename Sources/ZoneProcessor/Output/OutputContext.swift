/// What the processor attaches to each message it produces and gets back when the broker
/// refuses it: the input the message was produced for and what kind of message it is, which
/// together decide the answer (a dead letter, or a dead letter in its minimal form).
///
/// Two words, held inline by the producer's `any Sendable`: attaching it allocates nothing.
struct OutputContext: Sendable {
    let origin: OutputOrigin
    let kind: OutputSink.OutputKind
}

import ZoneKafka

/// What the processor attaches to each message it produces and gets back when the broker
/// refuses it: where the input the message was produced for lies, and what kind of message it
/// is, which together decide the answer (a dead letter, or a dead letter in its minimal form).
/// The input's bytes are not kept: a refusal reads them again (``InputRecordFetcher``).
///
/// Sixteen bytes, held inline by the producer's `any Sendable`: attaching it allocates nothing.
struct OutputContext: Sendable {
    /// The processor's topics an input can come from, by number (a name would not fit inline).
    enum InputTopic: UInt8 {
        case workoutEvents
        case personWorkouts
        case personChangelog
        case classWorkouts
        case classChangelog

        func name(in topics: Topics) -> String {
            switch self {
            case .workoutEvents: topics.workoutEvents
            case .personWorkouts: topics.personWorkouts
            case .personChangelog: topics.personChangelog
            case .classWorkouts: topics.classWorkouts
            case .classChangelog: topics.classChangelog
            }
        }
    }

    /// What a message is, which decides the answer when the broker refuses it for good.
    enum Kind: UInt8 {
        /// A zone change, a target change, a finished workout or a summary: its input is
        /// dead-lettered as `output_rejected`.
        case output = 0
        /// A dead letter: sent again without the input's bytes.
        case deadLetter = 1
        /// A dead letter without the input's bytes: logged and counted.
        case minimalDeadLetter = 2
    }

    let kind: Kind
    let inputTopic: InputTopic
    let inputPartition: Int32
    /// -1 when no input record produced the output (a session finished by its idle timeout).
    let inputOffset: Int64
}

import Foundation
import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Encodes what the engine produces and hands it to the producer; one per worker.
/// Dead letters carry the input record being processed, set with ``begin(topic:partition:offset:key:value:)``.
///
/// Every output carries its input (its coordinates in an ``OutputContext``, its bytes as the
/// message's ``MessageInput``), so an output the broker refuses for good is answered with a
/// dead letter of that input (`output_rejected`) rather than a stop: see ``resolve(_:into:)``.
/// Nothing here throws; no record stops the worker.
struct OutputSink: SessionEventSink {
    /// The input record being processed; its buffers are valid only during that processing.
    struct CurrentRecord {
        var topic: String
        var partition: Int32
        /// -1 while no input record is being processed (idle timeouts).
        var offset: Int64
        var key: UnsafeRawBufferPointer?
        var value: UnsafeRawBufferPointer?
    }

    /// What an output is, carried through librdkafka as the message tag.
    enum OutputKind: Int {
        /// A zone change or a finished workout: refused for good, its input is dead-lettered.
        case output = 0
        /// A dead letter: refused for good, it is sent again without the input's bytes.
        case deadLetter = 1
        /// A dead letter without the input's bytes: refused too, it is logged and counted.
        case minimalDeadLetter = 2
    }

    let producer: KafkaProducer
    let topics: Topics
    /// The frequent outputs' topics, looked up once (by name, each record took a lock).
    private let zoneChangesTopic: KafkaProducer.Topic
    private let workoutsFinishedTopic: KafkaProducer.Topic
    private let targetChangesTopic: KafkaProducer.Topic
    /// The stages' repartition topics: each finished workout with a person (a class), keyed by it.
    private let personWorkoutsTopic: KafkaProducer.Topic
    private let classWorkoutsTopic: KafkaProducer.Topic
    private var personWorkoutCodec = PersonWorkoutCodec()
    private var classWorkoutCodec = ClassWorkoutCodec()
    /// Finished workouts' copies for the stages since the last seal (see
    /// ``releaseStageCopies()``); at most two per session finished in a commit interval.
    var heldCopies: [HeldStageCopy] = []
    /// The tracker of the current commit epoch; replaced when the epoch is sealed.
    var tracker: DeliveryTracker
    let metrics: ProcessorMetrics
    let budget: SessionBudget
    let logger: Logger
    private(set) var current = CurrentRecord(topic: "", partition: 0, offset: -1)
    /// Zone changes are the frequent output: written without jansson or allocation.
    var zoneChangeWriter = ZoneChangeWriter()
    /// Finished workouts, written the same way (no jansson tree per summary).
    var workoutFinishedWriter = WorkoutFinishedWriter()
    var targetChangeWriter = TargetChangeWriter()
    /// Outputs counted locally and published to ``metrics`` once per batch (no shared
    /// cache line written per record).
    var zoneChangeCount = 0
    /// The oldest sample time behind a zone change since the last ``ProcessorMetrics`` report
    /// (`Int64.max`: none), for the sample-age histogram.
    var oldestZoneChangeTs = Int64.max

    init(
        producer: KafkaProducer, topics: Topics, tracker: DeliveryTracker, metrics: ProcessorMetrics,
        budget: SessionBudget, logger: Logger
    ) {
        self.producer = producer
        self.topics = topics
        zoneChangesTopic = producer.topic(topics.zoneChanges)
        workoutsFinishedTopic = producer.topic(topics.workoutsFinished)
        targetChangesTopic = producer.topic(topics.targetChanges)
        personWorkoutsTopic = producer.topic(topics.personWorkouts)
        classWorkoutsTopic = producer.topic(topics.classWorkouts)
        self.tracker = tracker
        self.metrics = metrics
        self.budget = budget
        self.logger = logger
        current.topic = topics.workoutEvents
    }

    /// Starts processing one input record (its buffers must stay valid until the next call).
    mutating func begin(partition: Int32, offset: Int64, key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?) {
        current.partition = partition
        current.offset = offset
        current.key = key
        current.value = value
    }

    /// Starts work that no input record causes (idle timeouts) in `partition`.
    mutating func beginWithoutRecord(partition: Int32) {
        begin(partition: partition, offset: -1, key: nil, value: nil)
    }

    /// Where the input of the outputs produced now lies, for the messages of `kind`.
    func context(_ kind: OutputKind) -> OutputContext {
        OutputContext(
            kind: kind, inputTopic: .workoutEvents, inputPartition: current.partition, inputOffset: current.offset)
    }

    /// The input of the outputs produced now, copied (for a refusal); for work without a
    /// record, `session` stands in as its key.
    func origin(session: String) -> OutputOrigin {
        func bytes(_ buffer: UnsafeRawBufferPointer?) -> [UInt8]? { buffer.map { Array($0) } }
        guard current.offset >= 0 else {
            return OutputOrigin(
                .workoutEvents, of: topics, partition: current.partition, offset: -1, key: Array(session.utf8),
                value: nil)
        }
        return OutputOrigin(
            .workoutEvents, of: topics, partition: current.partition, offset: current.offset, key: bytes(current.key),
            value: bytes(current.value))
    }

    /// Lends the bytes of the input of the outputs produced now: the current record's, or for
    /// work without a record, `session` as its key. Static, so `body` may read the sink.
    private static func withInput<Result>(
        of current: CurrentRecord, session: String, _ body: (InputBytes) -> Result
    ) -> Result {
        guard current.offset < 0 else { return body(InputBytes(key: current.key, value: current.value)) }
        return Array(session.utf8).withUnsafeBytes { body(InputBytes(key: $0, value: nil)) }
    }

    /// An input's key and value, lent for one produce call.
    private struct InputBytes {
        let key: UnsafeRawBufferPointer?
        let value: UnsafeRawBufferPointer?
    }

    mutating func zoneChanged(_ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration)
    {
        zoneChangeWriter.encode(change, session: session, person: person, configuration: configuration)
        let writer = zoneChangeWriter
        produceOutput(to: zoneChangesTopic, key: session, session: session) { writer.withBytes($0) }
        zoneChangeCount += 1
        oldestZoneChangeTs = min(oldestZoneChangeTs, change.timestamp)
    }

    mutating func targetChanged(_ change: TargetChange, session: String, person: String?, sessionClass: String?) {
        targetChangeWriter.encode(change, session: session, person: person, sessionClass: sessionClass)
        let writer = targetChangeWriter
        produceOutput(to: targetChangesTopic, key: session, session: session) { writer.withBytes($0) }
    }

    mutating func workoutFinished(_ summary: WorkoutSummary) {
        workoutFinishedWriter.encode(summary)
        let writer = workoutFinishedWriter
        produceOutput(to: workoutsFinishedTopic, key: summary.session, session: summary.session) {
            writer.withBytes($0)
        }
        if let person = summary.person {
            hold(
                personWorkoutCodec.encode(CountedWorkout(summary), person: person), to: personWorkoutsTopic,
                key: person,
                session: summary.session)
        }
        if let sessionClass = summary.sessionClass {
            hold(
                classWorkoutCodec.encode(ClassWorkout(summary), sessionClass: sessionClass), to: classWorkoutsTopic,
                key: sessionClass, session: summary.session)
        }
        metrics.countWorkoutFinished()
        budget.release(1)
    }

    /// A finished workout's copy for a stage, with the input that finished it.
    struct HeldStageCopy {
        let topic: KafkaProducer.Topic
        /// The person or class.
        let key: String
        let session: String
        let value: [UInt8]
        let partition: Int32
        /// -1 when the session finished by its idle timeout (no input record).
        let offset: Int64
        let input: MessageInput
    }

    /// A produce call refused at once: its error and the output's size.
    typealias Refusal = (error: KafkaError, size: Int)

    /// Produces one output of the current record (of `session`, for work without a record) to
    /// `topic`, keyed by `key` (a session id, or a person id for the person stage), its value
    /// lent by `lendValue` (a writer's buffer: not copied). A refusal at once is answered with
    /// a dead letter of the input once the loan is over.
    mutating func produceOutput(
        to topic: KafkaProducer.Topic, key: String, session: String,
        lendValue: ((UnsafeRawBufferPointer) -> Refusal?) -> Refusal?
    ) {
        let (producer, tracker, context) = (producer, tracker, context(.output))
        let refusal = Self.withInput(of: current, session: session) { input in
            lendValue { value in
                Self.produce(producer, topic, key: key, value: value, tracker: tracker, context: context, input: input)
            }
        }
        if let refusal {
            rejectOutput(
                topic: topic.name, size: refusal.size, error: refusal.error, origin: origin(session: session),
                into: tracker)
        }
    }

    /// One produce call with the input's bytes (static: it reads nothing of the sink).
    private static func produce(
        _ producer: KafkaProducer, _ topic: KafkaProducer.Topic, key: String, value: UnsafeRawBufferPointer,
        tracker: DeliveryTracker, context: OutputContext, input: InputBytes
    ) -> Refusal? {
        var id = key
        return id.withUTF8 { key -> Refusal? in
            do throws(KafkaError) {
                try producer.produce(
                    to: topic, key: UnsafeRawBufferPointer(key), value: value, tracker: tracker, context: context,
                    inputKey: input.key, inputValue: input.value)
                return nil
            } catch {
                return (error, value.count)
            }
        }
    }

    mutating func admitSession(_ id: String) -> Bool { budget.tryAdmit() }
}

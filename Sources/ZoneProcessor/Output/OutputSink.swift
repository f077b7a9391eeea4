import Foundation
import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Encodes what the engine produces and hands it to the producer; one per worker.
/// Dead letters carry the input record being processed, set with ``begin(topic:partition:offset:key:value:)``.
///
/// Every output carries its input (an ``OutputOrigin``), so an output the broker refuses for
/// good is answered with a dead letter of that input (`output_rejected`) rather than a stop:
/// see ``resolve(_:into:)``. Nothing here throws; no record stops the worker.
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
    /// The person stage's repartition topic: each finished workout with a person, keyed by it.
    private let personWorkoutsTopic: KafkaProducer.Topic
    private var personWorkoutCodec = PersonWorkoutCodec()
    /// The tracker of the current commit epoch; replaced when the epoch is sealed.
    var tracker: DeliveryTracker
    let metrics: ProcessorMetrics
    let budget: SessionBudget
    let logger: Logger
    private(set) var current = CurrentRecord(topic: "", partition: 0, offset: -1)
    /// The current record copied for its outputs, made on its first output.
    private var currentOrigin: OutputOrigin?
    /// Zone changes are the frequent output: written without jansson or allocation.
    var zoneChangeWriter = ZoneChangeWriter()
    /// Finished workouts, written the same way (no jansson tree per summary).
    var workoutFinishedWriter = WorkoutFinishedWriter()
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
        personWorkoutsTopic = producer.topic(topics.personWorkouts)
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
        currentOrigin = nil
    }

    /// Starts work that no input record causes (idle timeouts) in `partition`.
    mutating func beginWithoutRecord(partition: Int32) {
        begin(partition: partition, offset: -1, key: nil, value: nil)
    }

    /// The input of the outputs produced now; for work without a record, `session` stands in.
    mutating func origin(session: String) -> OutputOrigin {
        if let currentOrigin { return currentOrigin }
        let made =
            current.offset < 0
            ? OutputOrigin(
                topic: current.topic, partition: current.partition, offset: -1, key: Array(session.utf8), value: nil)
            : OutputOrigin(
                topic: current.topic, partition: current.partition, offset: current.offset,
                keyBytes: current.key, valueBytes: current.value)
        currentOrigin = made
        return made
    }

    mutating func zoneChanged(_ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration)
    {
        zoneChangeWriter.encode(change, session: session, person: person, configuration: configuration)
        let origin = origin(session: session)
        let (producer, topic, tracker) = (producer, zoneChangesTopic, tracker)
        let refusal = zoneChangeWriter.withBytes { value in
            Self.produceOutput(producer, topic, key: session, value: value, tracker: tracker, origin: origin)
        }
        if let refusal {
            rejectOutput(topic: topic.name, size: refusal.size, error: refusal.error, origin: origin, into: tracker)
        }
        zoneChangeCount += 1
        oldestZoneChangeTs = min(oldestZoneChangeTs, change.timestamp)
    }

    mutating func workoutFinished(_ summary: WorkoutSummary) {
        let origin = origin(session: summary.session)
        workoutFinishedWriter.encode(summary)
        let (producer, topic, tracker) = (producer, workoutsFinishedTopic, tracker)
        let refusal = workoutFinishedWriter.withBytes { value in
            Self.produceOutput(producer, topic, key: summary.session, value: value, tracker: tracker, origin: origin)
        }
        if let refusal {
            rejectOutput(topic: topic.name, size: refusal.size, error: refusal.error, origin: origin, into: tracker)
        }
        if let person = summary.person { repartition(summary, person: person, origin: origin) }
        metrics.countWorkoutFinished()
        budget.release(1)
    }

    /// Sends a finished workout with a person to the person stage, keyed by the person, in the
    /// same commit epoch (and transaction) as the workout itself.
    private mutating func repartition(_ summary: WorkoutSummary, person: String, origin: OutputOrigin) {
        let value = personWorkoutCodec.encode(CountedWorkout(summary), person: person)
        let refusal = value.withUnsafeBytes { value in
            Self.produceOutput(
                producer, personWorkoutsTopic, key: person, value: value, tracker: tracker, origin: origin)
        }
        if let refusal {
            rejectOutput(
                topic: personWorkoutsTopic.name, size: refusal.size, error: refusal.error, origin: origin, into: tracker
            )
        }
    }

    /// Produces one output of the current record, keyed by `key` (its session id, or a person
    /// id for the person stage), from the bytes a writer lends (so neither is copied; static,
    /// so the writer's buffer is read while nothing of the sink is changed). A refusal at once
    /// is returned, for the caller to answer with a dead letter once the writer's loan is over.
    private static func produceOutput(
        _ producer: KafkaProducer, _ topic: KafkaProducer.Topic, key: String, value: UnsafeRawBufferPointer,
        tracker: DeliveryTracker, origin: OutputOrigin
    ) -> (error: KafkaError, size: Int)? {
        var id = key
        return id.withUTF8 { key -> (error: KafkaError, size: Int)? in
            do throws(KafkaError) {
                try producer.produce(
                    to: topic, key: UnsafeRawBufferPointer(key), value: value, tracker: tracker,
                    context: OutputContext(origin: origin, kind: .output))
                return nil
            } catch {
                return (error, value.count)
            }
        }
    }

    mutating func admitSession(_ id: String) -> Bool { budget.tryAdmit() }
}

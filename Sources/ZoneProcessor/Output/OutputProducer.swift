import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Encodes what the engine returned for one input record and produces it: zone changes, target
/// changes and finished workouts to their topics, rejections through the ``DeadLetterPolicy``,
/// and finished workouts' copies for the person and class stages held in ``StageCopies`` until
/// the commit epoch is sealed. One per worker; nothing here throws, no record stops the worker.
///
/// Every message carries where its input lies (an ``OutputContext``), so an output the broker
/// refuses for good is answered with a dead letter of that input (`output_rejected`), read
/// again by those coordinates, rather than a stop.
struct OutputProducer {
    let producer: KafkaProducer
    let topics: Topics
    let deadLetters: DeadLetterPolicy
    /// The frequent outputs' topics, looked up once (by name, each record took a lock).
    private let zoneChangesTopic: KafkaProducer.Topic
    private let workoutsFinishedTopic: KafkaProducer.Topic
    private let targetChangesTopic: KafkaProducer.Topic
    /// The stages' repartition topics: each finished workout with a person (a class), keyed by it.
    private let personWorkoutsTopic: KafkaProducer.Topic
    private let classWorkoutsTopic: KafkaProducer.Topic
    private var personWorkoutCodec = PersonWorkoutCodec()
    private var classWorkoutCodec = ClassWorkoutCodec()
    /// Finished workouts' copies for the stages since the last seal.
    var stageCopies = StageCopies()
    /// The tracker of the current commit epoch; replaced when the epoch is sealed.
    private(set) var tracker: DeliveryTracker
    private let newTracker: () -> DeliveryTracker
    private let metrics: ProcessorMetrics
    /// Zone changes are the frequent output: written without jansson or allocation.
    private var zoneChangeWriter = ZoneChangeWriter()
    /// Finished workouts, written the same way (no jansson tree per summary).
    private var workoutFinishedWriter = WorkoutFinishedWriter()
    private var targetChangeWriter = TargetChangeWriter()

    init(
        producer: KafkaProducer, topics: Topics, metrics: ProcessorMetrics, logger: Logger,
        inputs: InputRecordFetcher, newTracker: @escaping () -> DeliveryTracker
    ) {
        self.producer = producer
        self.topics = topics
        deadLetters = DeadLetterPolicy(
            producer: producer, topics: topics, metrics: metrics, logger: logger, inputs: inputs)
        zoneChangesTopic = producer.topic(topics.zoneChanges)
        workoutsFinishedTopic = producer.topic(topics.workoutsFinished)
        targetChangesTopic = producer.topic(topics.targetChanges)
        personWorkoutsTopic = producer.topic(topics.personWorkouts)
        classWorkoutsTopic = producer.topic(topics.classWorkouts)
        self.newTracker = newTracker
        tracker = newTracker()
        self.metrics = metrics
    }

    /// Ends the current commit epoch's outputs: returns their tracker and starts a new one.
    mutating func takeTracker() -> DeliveryTracker {
        defer { tracker = newTracker() }
        return tracker
    }

    /// Produces everything `outputs` holds, the outputs of `input`.
    mutating func produce(_ outputs: borrowing EngineOutputs, of input: InputRecord) {
        // Read in place by index: `for output in` copies each change out first.
        for index in outputs.zoneChanges.indices {
            let identity = outputs.zoneChanges[index].session
            zoneChangeWriter.encode(
                outputs.zoneChanges[index].change, session: identity.session, person: identity.person,
                configuration: outputs.zoneChanges[index].configuration)
            let writer = zoneChangeWriter
            produce(to: zoneChangesTopic, key: identity.session, input: input) {
                writer.withBytes($0)
            }
        }
        for index in outputs.targetChanges.indices {
            let identity = outputs.targetChanges[index].session
            targetChangeWriter.encode(
                outputs.targetChanges[index].change, session: identity.session, person: identity.person,
                sessionClass: identity.sessionClass)
            let writer = targetChangeWriter
            produce(to: targetChangesTopic, key: identity.session, input: input) {
                writer.withBytes($0)
            }
        }
        for summary in outputs.finished { workoutFinished(summary, input: input) }
        for rejection in outputs.rejections { deadLetters.reject(rejection, input: input, into: tracker) }
    }

    private mutating func workoutFinished(_ summary: WorkoutSummary, input: InputRecord) {
        workoutFinishedWriter.encode(summary)
        let writer = workoutFinishedWriter
        produce(to: workoutsFinishedTopic, key: summary.session, input: input) {
            writer.withBytes($0)
        }
        if let person = summary.person {
            stageCopies.hold(
                personWorkoutCodec.encode(CountedWorkout(summary), person: person), to: personWorkoutsTopic,
                key: person, input: input)
        }
        if let sessionClass = summary.sessionClass {
            stageCopies.hold(
                classWorkoutCodec.encode(ClassWorkout(summary), sessionClass: sessionClass), to: classWorkoutsTopic,
                key: sessionClass, input: input)
        }
        metrics.countWorkoutFinished()
    }

    /// Produces the finished workouts' copies held since the last seal to the stages, into the
    /// commit epoch being sealed (its tracker, its transaction), each with its input's coordinates.
    mutating func releaseStageCopies() {
        for copy in stageCopies.take() {
            let input = InputRecord(partition: copy.partition, offset: copy.offset, key: nil, value: nil)
            produce(to: copy.topic, key: copy.key, input: input) { copy.value.withUnsafeBytes($0) }
        }
    }

    /// A produce call refused at once: its error and the output's size.
    typealias Refusal = (error: KafkaError, size: Int)

    /// Produces one output of `input` to `topic`, keyed by `key` (a session id, or a person or
    /// class for the stages), its value lent by `lendValue` (a writer's buffer: not copied). A
    /// refusal at once is answered with a dead letter of the input once the loan is over.
    private mutating func produce(
        to topic: KafkaProducer.Topic, key: String, input: InputRecord,
        lendValue: ((UnsafeRawBufferPointer) -> Refusal?) -> Refusal?
    ) {
        let (producer, tracker, context) = (producer, tracker, input.context(.output))
        let refusal = lendValue { value in
            var id = key
            return id.withUTF8 { key -> Refusal? in
                do throws(KafkaError) {
                    try producer.produce(
                        to: topic, key: UnsafeRawBufferPointer(key), value: value, tracker: tracker, context: context)
                    return nil
                } catch {
                    return (error, value.count)
                }
            }
        }
        if let refusal {
            deadLetters.rejectOutput(
                topic: topic.name, size: refusal.size, error: refusal.error, input: context,
                outputKey: Array(key.utf8), into: tracker)
        }
    }
}

import Foundation
import ZoneCodecs
import ZoneEngine

/// The person stage (contract, `person-summaries`): finished workouts re-keyed by person, each
/// person's counted workouts of the last 28 days, a summary after each new workout.
struct PersonAggregation: StageAggregation {
    let role: StageRole
    private var codec = PersonWorkoutCodec()
    private var writer = PersonSummaryWriter()

    init(configuration: ProcessorConfiguration) {
        role = .people(configuration)
    }

    mutating func decode(value: UnsafeRawBufferPointer?, key: UnsafeRawBufferPointer?)
        -> Result<(key: String, item: CountedWorkout), Rejection>
    {
        codec.decode(value: value, key: key).map { (key: $0.person, item: $0.workout) }
    }

    func emptyState(key: String) -> PersonTrainingLog { PersonTrainingLog(person: key) }

    mutating func count(_ item: CountedWorkout, into state: inout PersonTrainingLog) -> (key: String, value: [UInt8])? {
        guard let summary = state.count(item) else { return nil }
        return (state.person, writer.write(summary))
    }

    func snapshot(_ state: PersonTrainingLog) -> [UInt8] { state.snapshot() }

    func restore(_ bytes: UnsafeRawBufferPointer) throws(SnapshotError) -> (key: String, state: PersonTrainingLog) {
        let log = try PersonTrainingLog(snapshot: bytes)
        return (log.person, log)
    }

    func isIdle(_ state: PersonTrainingLog, now: Int64) -> Bool { state.isIdle(at: now) }
}

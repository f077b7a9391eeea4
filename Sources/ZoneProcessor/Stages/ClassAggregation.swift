import Foundation
import ZoneCodecs
import ZoneEngine

/// The class stage (contract, `class-summaries`): finished workouts with a class re-keyed by
/// class, each class's latest local day of counted workouts, a summary (keyed
/// `<class>@<day>`) after each new workout.
struct ClassAggregation: StageAggregation {
    let role: StageRole
    let offsetMinutes: Int
    private var codec = ClassWorkoutCodec()
    private var writer = ClassSummaryWriter()

    init(configuration: ProcessorConfiguration) {
        role = .classes(configuration)
        offsetMinutes = configuration.classDayOffsetMinutes
    }

    mutating func decode(value: UnsafeRawBufferPointer?, key: UnsafeRawBufferPointer?)
        -> Result<(key: String, item: ClassWorkout), Rejection>
    {
        codec.decode(value: value, key: key).map { (key: $0.sessionClass, item: $0.workout) }
    }

    func emptyState(key: String) -> ClassDayLog { ClassDayLog(sessionClass: key) }

    mutating func count(_ item: ClassWorkout, into state: inout ClassDayLog) -> (key: String, value: [UInt8])? {
        guard let summary = state.count(item, offsetMinutes: offsetMinutes) else { return nil }
        return (summary.key, writer.write(summary))
    }

    func snapshot(_ state: ClassDayLog) -> [UInt8] { state.snapshot() }

    func restore(_ bytes: UnsafeRawBufferPointer) throws(SnapshotError) -> (key: String, state: ClassDayLog) {
        let day = try ClassDayLog(snapshot: bytes)
        return (day.sessionClass, day)
    }

    func isIdle(_ state: ClassDayLog, now: Int64) -> Bool { state.isIdle(at: now, offsetMinutes: offsetMinutes) }
}

import Foundation
import ZoneCodecs
import ZoneEngine

/// The load generator's oracle: runs the generated records through the same decoder and
/// engine locally, so for clean traffic it knows every finished workout ZoneStream must produce.
struct LoadOracle {
    private var decoder = WorkoutEventDecoder()
    private var profileDecoder = ProfileDecoder()
    private var profiles: [String: PersonProfile] = [:]
    private var classPlanDecoder = ClassPlanDecoder()
    private var classPlans: [String: WorkoutPlan] = [:]
    /// Days in the gym's local time (`class_day_offset_minutes`) of the processor checked.
    let classDayOffsetMinutes: Int
    private var store: SessionStore
    private var outputs = EngineOutputs()

    init(settings: EngineSettings, classDayOffsetMinutes: Int = 0) {
        store = SessionStore(settings: settings)
        self.classDayOffsetMinutes = classDayOffsetMinutes
    }

    mutating func classPlan(key: String, value: String) {
        let outcome = Array(value.utf8).withUnsafeBytes { value in
            Array(key.utf8).withUnsafeBytes { key in classPlanDecoder.decode(value: value, key: key) }
        }
        if case .success(.upsert(let sessionClass, let plan)) = outcome { classPlans[sessionClass] = plan }
    }

    mutating func profile(key: String, value: String) {
        let outcome = Array(value.utf8).withUnsafeBytes { profileDecoder.decode(value: $0, key: key) }
        if case .success(.upsert(let profile)) = outcome { profiles[profile.person] = profile }
    }

    mutating func event(key: String, value: String) {
        guard case .success(let event) = decoder.decode(value: Array(value.utf8), key: Array(key.utf8)) else { return }
        let profiles = profiles
        let classPlans = classPlans
        var produced = EngineOutputs()
        store.handle(event, wallMs: 0, profiles: profiles, classPlans: classPlans, outputs: &produced)
        outputs.append(contentsOf: produced)
    }

    /// The expected `zone_change` events by event_id, as JSON objects.
    func expectedZoneChanges() -> [String: Any] {
        var writer = ZoneChangeWriter()
        var expected: [String: Any] = [:]
        for output in outputs.zoneChanges {
            let identity = output.session
            let bytes = Data(
                writer.write(
                    output.change, session: identity.session, person: identity.person,
                    configuration: output.configuration))
            guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                let id = object["event_id"] as? String
            else { continue }
            expected[id] = object
        }
        return expected
    }

    /// The expected `target_change` events by event_id, as JSON objects.
    func expectedTargetChanges() -> [String: Any] {
        var writer = TargetChangeWriter()
        var expected: [String: Any] = [:]
        for output in outputs.targetChanges {
            let identity = output.session
            let bytes = Data(
                writer.write(
                    output.change, session: identity.session, person: identity.person,
                    sessionClass: identity.sessionClass))
            guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                let id = object["event_id"] as? String
            else { continue }
            expected[id] = object
        }
        return expected
    }

    /// Each class day's last `class_summary` once all its workouts are counted, by
    /// `<class>@<day>`, with how many workouts it had.
    func expectedClassSummaries() -> [String: SummaryTally.Expectation] {
        var days: [String: ClassDayLog] = [:]
        var latest: [String: (summary: ClassSummary, workouts: Int)] = [:]
        for workout in outputs.finished {
            guard let sessionClass = workout.sessionClass else { continue }
            var day = days[sessionClass] ?? ClassDayLog(sessionClass: sessionClass)
            if let summary = day.count(ClassWorkout(workout), offsetMinutes: classDayOffsetMinutes) {
                latest[summary.key] = (summary, summary.workouts)
            }
            days[sessionClass] = day
        }
        var writer = ClassSummaryWriter()
        return latest.compactMapValues { entry in
            (try? JSONSerialization.jsonObject(with: Data(writer.write(entry.summary))) as? [String: Any])
                .map { SummaryTally.Expectation(summary: $0, workouts: entry.workouts) }
        }
    }

    /// Each person's last `person_summary` once all their workouts are counted, in the order
    /// the run finished them, with how many workouts they had.
    func expectedPersonSummaries() -> [String: SummaryTally.Expectation] {
        var logs: [String: PersonTrainingLog] = [:]
        var latest: [String: (summary: PersonSummary, workouts: Int)] = [:]
        for workout in outputs.finished {
            guard let person = workout.person else { continue }
            var log = logs[person] ?? PersonTrainingLog(person: person)
            let summary = log.count(CountedWorkout(workout))
            logs[person] = log
            let workouts = (latest[person]?.workouts ?? 0) + 1
            if let summary { latest[person] = (summary, workouts) }
        }
        var writer = PersonSummaryWriter()
        return latest.compactMapValues { entry in
            (try? JSONSerialization.jsonObject(with: Data(writer.write(entry.summary))) as? [String: Any])
                .map { SummaryTally.Expectation(summary: $0, workouts: entry.workouts) }
        }
    }

    /// The expected `workout_finished` events by session id, as JSON objects.
    func expectedFinished() -> [String: Any] {
        var expected: [String: Any] = [:]
        for summary in outputs.finished {
            expected[summary.session] = try? JSONSerialization.jsonObject(
                with: Data(OutputEncoder.workoutFinished(summary)))
        }
        return expected
    }
}

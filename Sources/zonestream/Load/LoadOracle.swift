import Foundation
import ZoneCodecs
import ZoneEngine

/// The load generator's oracle: runs the generated records through the same decoder and
/// engine locally, so for clean traffic it knows every finished workout ZoneStream must produce.
struct LoadOracle {
    private var decoder = WorkoutEventDecoder()
    private var profileDecoder = ProfileDecoder()
    private var profiles: [String: PersonProfile] = [:]
    private var store: SessionStore
    private var sink = RecordingSink()

    init(settings: EngineSettings) {
        store = SessionStore(settings: settings)
    }

    mutating func profile(key: String, value: String) {
        let outcome = Array(value.utf8).withUnsafeBytes { profileDecoder.decode(value: $0, key: key) }
        if case .success(.upsert(let profile)) = outcome { profiles[profile.person] = profile }
    }

    mutating func event(key: String, value: String) {
        guard case .success(let event) = decoder.decode(value: Array(value.utf8), key: Array(key.utf8)) else { return }
        let profiles = profiles
        store.handle(event, wallMs: 0, profiles: { profiles[$0] }, sink: &sink)
    }

    /// The expected `zone_change` events by event_id, as JSON objects.
    func expectedZoneChanges() -> [String: Any] {
        var writer = ZoneChangeWriter()
        var expected: [String: Any] = [:]
        for output in sink.outputs {
            guard case .zoneChange(let change, let session, let person, let configuration) = output else { continue }
            let bytes = Data(writer.write(change, session: session, person: person, configuration: configuration))
            guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                let id = object["event_id"] as? String
            else { continue }
            expected[id] = object
        }
        return expected
    }

    /// Each person's last `person_summary` once all their workouts are counted, in the order
    /// the run finished them, with how many workouts they had.
    func expectedPersonSummaries() -> [String: PersonSummaryTally.Expectation] {
        var logs: [String: PersonTrainingLog] = [:]
        var latest: [String: (summary: PersonSummary, workouts: Int)] = [:]
        for workout in sink.finished {
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
                .map { PersonSummaryTally.Expectation(summary: $0, workouts: entry.workouts) }
        }
    }

    /// The expected `workout_finished` events by session id, as JSON objects.
    func expectedFinished() -> [String: Any] {
        var expected: [String: Any] = [:]
        for summary in sink.finished {
            expected[summary.session] = try? JSONSerialization.jsonObject(
                with: Data(OutputEncoder.workoutFinished(summary)))
        }
        return expected
    }
}

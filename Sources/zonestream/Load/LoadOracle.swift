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

    /// The expected `person_summary` events by person id, as JSON objects, for the persons with
    /// one workout in the run: theirs is fixed. (A person with several has summaries whose
    /// order follows the order their workouts reach the person stage, which is not fixed.)
    func expectedPersonSummaries() -> [String: Any] {
        let byPerson = Dictionary(grouping: sink.finished.filter { $0.person != nil }) { $0.person ?? "" }
        var writer = PersonSummaryWriter()
        var expected: [String: Any] = [:]
        for (person, workouts) in byPerson where workouts.count == 1 {
            var log = PersonTrainingLog(person: person)
            guard let summary = log.count(CountedWorkout(workouts[0])) else { continue }
            expected[person] = try? JSONSerialization.jsonObject(with: Data(writer.write(summary)))
        }
        return expected
    }

    /// The expected `workout_finished` events by session id, as JSON objects.
    func expectedFinished() -> [String: Any] {
        var expected: [String: Any] = [:]
        for summary in sink.finished {
            expected[summary.session] = try? JSONSerialization.jsonObject(with: Data(OutputEncoder.workoutFinished(summary)))
        }
        return expected
    }
}

import Foundation
import Testing
import ZoneCodecs
import ZoneEngine
import ZoneTestSupport

/// The worked examples end to end without Kafka: bytes decoded, run through the engine,
/// outputs encoded, and every output compared field for field with the expected JSON.
@Suite struct ContractExampleCodecTests {
    @Test(arguments: try ContractExample.all().map(\.name))
    func exampleBytesInBytesOut(name: String) throws {
        let example = try #require(try ContractExample.all().first { $0.name == name })
        var profiles: [String: PersonProfile] = [:]
        var profileDecoder = ProfileDecoder()
        for (person, object) in example.profiles {
            let bytes = try JSONSerialization.data(withJSONObject: object)
            let outcome = bytes.withUnsafeBytes { profileDecoder.decode(value: $0, key: person) }
            if case .success(.upsert(let profile)) = outcome { profiles[person] = profile }
        }
        var classPlans: [String: WorkoutPlan] = [:]
        var classPlanDecoder = ClassPlanDecoder()
        for (sessionClass, object) in example.classPlans {
            let bytes = try JSONSerialization.data(withJSONObject: object)
            let outcome = bytes.withUnsafeBytes { value in
                Array(sessionClass.utf8).withUnsafeBytes { key in classPlanDecoder.decode(value: value, key: key) }
            }
            if case .success(.upsert(let name, let plan)) = outcome { classPlans[name] = plan }
        }
        var decoder = WorkoutEventDecoder()
        var store = SessionStore(settings: example.engineSettings)
        var outputs = EngineOutputs()
        var deadLetters: [(String, Int)] = []
        for index in example.events.indices {
            let value = try example.valueBytes(at: index)
            let key = example.events[index].key.map { Array($0.utf8) }
            switch decoder.decode(value: value, key: key) {
            case .failure(let rejection):
                deadLetters.append((rejection.reason.rawValue, index))
            case .success(let event):
                var produced = EngineOutputs()
                store.handle(
                    event, wallMs: 0, profiles: profiles, classPlans: classPlans, outputs: &produced)
                outputs.append(contentsOf: produced)
                for rejection in produced.rejections {
                    deadLetters.append((rejection.reason.rawValue, index))
                }
            }
        }
        var zoneChanges: [Any] = []
        var targetChanges: [Any] = []
        var targetWriter = TargetChangeWriter()
        var finished: [Any] = []
        var personSummaries: [Any] = []
        var logs: [String: PersonTrainingLog] = [:]
        var repartition = PersonWorkoutCodec()
        var summaryWriter = PersonSummaryWriter()
        var classSummaries: [Any] = []
        var classDays: [String: ClassDayLog] = [:]
        var classRepartition = ClassWorkoutCodec()
        var classWriter = ClassSummaryWriter()
        for output in outputs.zoneChanges {
            let identity = output.session
            let bytes = OutputEncoder.zoneChange(
                output.change, session: identity.session, person: identity.person, configuration: output.configuration)
            zoneChanges.append(try JSONSerialization.jsonObject(with: Data(bytes)))
        }
        for output in outputs.targetChanges {
            let identity = output.session
            let bytes = targetWriter.write(
                output.change, session: identity.session, person: identity.person, sessionClass: identity.sessionClass)
            targetChanges.append(try JSONSerialization.jsonObject(with: Data(bytes)))
        }
        for summary in outputs.finished {
            let bytes = OutputEncoder.workoutFinished(summary)
            finished.append(try JSONSerialization.jsonObject(with: Data(bytes)))
            // The class stage: re-keyed by class through its repartition record, counted.
            if let sessionClass = summary.sessionClass {
                let record = classRepartition.encode(ClassWorkout(summary), sessionClass: sessionClass)
                let decoded = record.withUnsafeBytes { value in
                    Array(sessionClass.utf8).withUnsafeBytes { key in
                        classRepartition.decode(value: value, key: key)
                    }
                }
                let workout = try decoded.get()
                #expect(workout.workout == ClassWorkout(summary))
                var day = classDays[sessionClass] ?? ClassDayLog(sessionClass: sessionClass)
                if let classSummary = day.count(workout.workout, offsetMinutes: 0) {
                    classSummaries.append(
                        try JSONSerialization.jsonObject(with: Data(classWriter.write(classSummary))))
                }
                classDays[sessionClass] = day
            }
            // The person stage: re-keyed by person through the repartition record, counted.
            guard let person = summary.person else { continue }
            let record = repartition.encode(CountedWorkout(summary), person: person)
            let decoded = record.withUnsafeBytes { value in
                Array(person.utf8).withUnsafeBytes { key in repartition.decode(value: value, key: key) }
            }
            let workout = try decoded.get()
            #expect(workout.person == person)
            #expect(workout.workout == CountedWorkout(summary))
            var log = logs[person] ?? PersonTrainingLog(person: person)
            if let personSummary = log.count(workout.workout) {
                personSummaries.append(
                    try JSONSerialization.jsonObject(with: Data(summaryWriter.write(personSummary))))
            }
            logs[person] = log
        }
        #expect(ExpectationComparison.jsonEqual(zoneChanges, example.expectedZoneChanges), "\(name) zone changes")
        #expect(ExpectationComparison.jsonEqual(finished, example.expectedFinished), "\(name) finished")
        #expect(
            ExpectationComparison.jsonEqual(targetChanges, example.expectedTargetChanges), "\(name) target changes")
        #expect(
            ExpectationComparison.jsonEqual(personSummaries, example.expectedPersonSummaries),
            "\(name) person summaries")
        #expect(
            ExpectationComparison.jsonEqual(classSummaries, example.expectedClassSummaries), "\(name) class summaries")
        #expect(deadLetters.map(\.0) == example.expectedDeadLetters.map(\.reason))
        #expect(deadLetters.map(\.1) == example.expectedDeadLetters.map(\.inputIndex))
    }

    @Test func encodedNumbersKeepTheContractsShape() throws {
        // Boundaries and min/max print as integers when whole, averages always as reals.
        var h = EngineHarness()
        h.hr(112, at: 0)
        let finished = try #require({ h.end(at: 1) }())
        let text = String(decoding: OutputEncoder.workoutFinished(finished), as: UTF8.self)
        #expect(text.contains("\"boundaries\":[91,114,136,158]"))
        #expect(text.contains("\"min\":112,\"max\":112,\"avg\":112.0,\"samples\":1"))
        #expect(text.hasPrefix("{\"schema\":1,\"type\":\"workout_finished\",\"session\":\"s1\""))
    }

    @Test func deadLetterCarriesTheRecordInBase64() throws {
        let bytes = OutputEncoder.deadLetter(
            Rejection(.badUnit, "unit 'W'"), topic: "workout-events", partition: 3, offset: 42,
            key: Array("k".utf8), value: [0xFF, 0x00])
        #expect(bytes.key == Array("k".utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes.value)) as? [String: Any])
        #expect(object["truncated"] == nil)
        #expect(object["schema"] as? Int == 1)
        #expect(object["reason"] as? String == "bad_unit")
        #expect(object["topic"] as? String == "workout-events")
        #expect(object["partition"] as? Int == 3)
        #expect(object["offset"] as? Int == 42)
        #expect(object["key_base64"] as? String == "aw==")
        #expect(object["value_base64"] as? String == "/wA=")
        let keyless = OutputEncoder.deadLetter(
            Rejection(.malformedJSON, "x"), topic: "t", partition: 0, offset: 0, key: [UInt8]?.none, value: nil)
        let keylessObject = try #require(try JSONSerialization.jsonObject(with: Data(keyless.value)) as? [String: Any])
        #expect(keylessObject["key_base64"] is NSNull)
    }
}

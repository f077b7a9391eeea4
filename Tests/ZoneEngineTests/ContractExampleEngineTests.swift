import Foundation
import Testing
import ZoneEngine
import ZoneTestSupport

/// Runs each worked example of the contract through the engine and checks every output.
@Suite struct ContractExampleEngineTests {
    static let engineReasons: Set<String> = [
        "session_finished", "invalid_transition", "zones_after_collection_began", "invalid_zones", "invalid_plan",
    ]

    @Test func committedExamplesMatchTheSharedSpec() throws {
        let shared = ContractExample.sharedDirectory
        guard FileManager.default.fileExists(atPath: shared.path) else { return }
        for file in try FileManager.default.contentsOfDirectory(atPath: shared.path) where file.hasSuffix(".json") {
            let committed = try Data(contentsOf: ContractExample.fixturesDirectory.appendingPathComponent(file))
            #expect(committed == (try Data(contentsOf: shared.appendingPathComponent(file))), "\(file) differs")
        }
    }

    @Test(arguments: try ContractExample.all().map(\.name))
    func exampleThroughEngine(name: String) throws {
        let example = try #require(try ContractExample.all().first { $0.name == name })
        var profiles: [String: PersonProfile] = [:]
        for (person, object) in example.profiles {
            profiles[person] = FoundationEventReader.profile(from: object, person: person)
        }
        var classPlans: [String: WorkoutPlan] = [:]
        for (sessionClass, object) in example.classPlans {
            let start = (object["start_ts"] as? NSNumber)?.int64Value ?? 0
            classPlans[sessionClass] = FoundationEventReader.plan(from: object, anchor: start, source: .class)
        }
        var store = SessionStore(settings: example.engineSettings)
        var outputs = EngineOutputs()
        let codecRejected = Set(
            example.expectedDeadLetters.filter { !Self.engineReasons.contains($0.reason) }.map(\.inputIndex))
        var engineRejections: [(String, Int)] = []
        for (index, event) in example.events.enumerated() where !codecRejected.contains(index) {
            let parsed = try #require(FoundationEventReader.event(from: event.value), "event \(index)")
            var produced = EngineOutputs()
            store.handle(
                parsed, wallMs: 0, profiles: profiles, classPlans: classPlans, outputs: &produced)
            outputs.append(contentsOf: produced)
            for rejection in produced.rejections {
                engineRejections.append((rejection.reason.rawValue, index))
            }
        }

        #expect(outputs.zoneChanges.count == example.expectedZoneChanges.count)
        for (actual, expected) in zip(outputs.zoneChanges, example.expectedZoneChanges) {
            let identity = actual.session
            let diff = ExpectationComparison.differences(
                actual.change, session: identity.session, person: identity.person, configuration: actual.configuration,
                expected: expected)
            #expect(diff.isEmpty, "\(name) zone change \(expected["event_id"] ?? ""): \(diff)")
        }
        // Target changes: each one's quantity, time, step and status (the codec tests compare
        // the whole event).
        let targets = outputs.targetChanges.map(\.change).map {
            "\($0.quantity.name)@\($0.timestamp): \($0.state.step + 1) \($0.state.status.name)"
        }
        let wantedTargets = example.expectedTargetChanges.map { change in
            let step = (change["step"] as? [String: Any])?["index"] as? Int ?? 0
            return "\(change["quantity"] ?? "")@\(change["ts"] ?? ""): \(step) \(change["status"] ?? "")"
        }
        #expect(targets == wantedTargets, "\(name) target changes")
        #expect(outputs.finished.count == example.expectedFinished.count)
        for (actual, expected) in zip(outputs.finished, example.expectedFinished) {
            let diff = ExpectationComparison.differences(actual, expected: expected)
            #expect(diff.isEmpty, "\(name) finished: \(diff)")
        }
        let wantedEngine = example.expectedDeadLetters.filter { Self.engineReasons.contains($0.reason) }
        #expect(engineRejections.map(\.0) == wantedEngine.map(\.reason))
        #expect(engineRejections.map(\.1) == wantedEngine.map(\.inputIndex))
    }
}

import Foundation
import Testing
import ZoneEngine
import ZoneProcessor
import ZoneSimulation
import ZoneTestSupport

/// Every worked example of the contract fed through real topics on each test broker (the
/// embedded mock, noida-db), the processor, and consumers of the outputs, compared field for field.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct ContractExamplesThroughKafkaTests {
    /// Every example with the contract's default settings, through one processor.
    @Test(arguments: BrokerKind.selected)
    func allExamplesEndToEnd(on kind: BrokerKind) throws {
        try Self.endToEnd(try ContractExample.all().filter { $0.engineSettings.targetMinDwellMs == 0 }, on: kind)
    }

    /// The examples that set `target_min_dwell_ms`, through a processor of their own.
    @Test(arguments: BrokerKind.selected)
    func examplesWithTargetDwellEndToEnd(on kind: BrokerKind) throws {
        try Self.endToEnd(try ContractExample.all().filter { $0.engineSettings.targetMinDwellMs > 0 }, on: kind)
    }

    static func endToEnd(_ chosen: [ContractExample], on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        // One profile table serves every example: an id two examples profile differently is renamed.
        let examples = ContractExample.withDistinctPersons(chosen)
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        for example in examples {
            for (person, profile) in example.profiles {
                try input.send(
                    "zone-profiles", key: person, value: Array(try JSONSerialization.data(withJSONObject: profile)))
            }
            for (sessionClass, record) in example.classPlans {
                try input.send(
                    "class-plans", key: sessionClass, value: Array(try JSONSerialization.data(withJSONObject: record)))
            }
        }
        try input.flush()
        var configuration = ProcessorConfiguration.forTest(bootstrap: broker.bootstrapServers)
        // The examples given set the same target_min_dwell_ms.
        configuration.engine.targetMinDwellMs = examples.map(\.engineSettings.targetMinDwellMs).max() ?? 0
        let running = try RunningProcessor(configuration: configuration)
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers,
            topics: [
                "zone-changes", "workouts-finished", "zonestream-dlq", "person-summaries", "target-changes",
                "class-summaries",
            ])
        defer { collector.stop() }
        var inputs: [[UInt8]] = []
        for example in examples {
            for index in example.events.indices {
                let value = try example.valueBytes(at: index)
                inputs.append(value)
                try input.send("workout-events", key: example.events[index].key, value: value)
            }
        }
        try input.flush()
        let wantedFinished = examples.reduce(0) { $0 + $1.expectedFinished.count }
        let wantedChanges = examples.reduce(0) { $0 + $1.expectedZoneChanges.count }
        let wantedDeadLetters = examples.reduce(0) { $0 + $1.expectedDeadLetters.count }
        let wantedSummaries = examples.reduce(0) { $0 + $1.expectedPersonSummaries.count }
        let wantedTargets = examples.reduce(0) { $0 + $1.expectedTargetChanges.count }
        let wantedClassSummaries = examples.reduce(0) { $0 + $1.expectedClassSummaries.count }
        let complete = collector.wait {
            $0.records("workouts-finished").count >= wantedFinished && $0.records("zone-changes").count >= wantedChanges
                && $0.records("zonestream-dlq").count >= wantedDeadLetters
                && $0.records("person-summaries").count >= wantedSummaries
                && $0.records("target-changes").count >= wantedTargets
                && $0.records("class-summaries").count >= wantedClassSummaries
        }
        #expect(running.stop() == nil)
        #expect(complete, "outputs did not all arrive")

        func objects(_ topic: String) throws -> [[String: Any]] {
            try collector.records(topic).map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.value.utf8)) as? [String: Any])
            }
        }
        let changes = try objects("zone-changes")
        let finished = try objects("workouts-finished")
        let deadLetters = try objects("zonestream-dlq")
        let summaries = try objects("person-summaries")
        let targets = try objects("target-changes")
        let classSummaries = try objects("class-summaries")
        #expect(classSummaries.count == wantedClassSummaries)
        try Self.checkClassSummaries(classSummaries, examples: examples)
        for record in collector.records("class-summaries") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(record.value.utf8)) as? [String: Any])
            #expect(record.key == "\(object["class"] ?? "")@\(object["day"] ?? "")", "keyed by class and day")
        }
        #expect(targets.count == wantedTargets)
        #expect(summaries.count == wantedSummaries)
        try Self.checkPersonSummaries(summaries, examples: examples)
        #expect(changes.count == wantedChanges)
        #expect(finished.count == wantedFinished)
        #expect(deadLetters.count == wantedDeadLetters)
        for example in examples {
            // Sessions of one example may sit on different partitions: compared session by session.
            let sessions = example.expectedFinished.compactMap { $0["session"] as? String }
            for session in sessions {
                func ofSession(_ records: [[String: Any]]) -> [[String: Any]] {
                    records.filter { $0["session"] as? String == session }
                }
                #expect(
                    ExpectationComparison.jsonEqual(ofSession(changes), ofSession(example.expectedZoneChanges)),
                    "\(example.name) zone changes of \(session)")
                #expect(
                    ExpectationComparison.jsonEqual(ofSession(finished), ofSession(example.expectedFinished)),
                    "\(example.name) finished \(session)")
                #expect(
                    ExpectationComparison.jsonEqual(ofSession(targets), ofSession(example.expectedTargetChanges)),
                    "\(example.name) target changes of \(session)")
            }
            guard let session = sessions.first else { continue }
            // Dead letters: reason, and the input record carried back in base64.
            let wanted = example.expectedDeadLetters.map { ($0.reason, try? example.valueBytes(at: $0.inputIndex)) }
            // Keyed by their inputs' keys: the sessions of the example's refused records.
            let keys = Set(
                example.expectedDeadLetters.map { Data((example.events[$0.inputIndex].key ?? session).utf8) })
            let actual = deadLetters.filter {
                ($0["key_base64"] as? String).flatMap { Data(base64Encoded: $0) }.map(keys.contains) ?? false
            }
            #expect(actual.map { $0["reason"] as? String ?? "" } == wanted.map(\.0), "\(example.name) dead letters")
            for (record, expected) in zip(actual, wanted) {
                #expect(record["schema"] as? Int == 1)
                #expect(record["topic"] as? String == "workout-events")
                #expect(record["partition"] is Int && record["offset"] is Int)
                #expect(!(record["detail"] as? String ?? "").isEmpty)
                #expect(
                    (record["value_base64"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init)
                        == expected.1)
            }
        }
        // Every output ZoneStream produced matches its topic's JSON Schema (schemas/).
        for topic in ["zone-changes", "workouts-finished", "zonestream-dlq", "person-summaries", "target-changes"] {
            try SchemaValidator.validate(collector.records(topic).map(\.value), schema: topic)
        }
        // Outputs are keyed by session id.
        for record in collector.records("workouts-finished") {
            #expect(record.value.contains("\"session\":\"\(record.key ?? "")\""))
        }
    }

    /// Class summaries, class by class: workouts of a class finish on different partitions, so
    /// they may reach the class stage in another order than the example's; each class has as
    /// many summaries as expected, and the one with the most workouts has the expected totals,
    /// compliance and leaderboard (all but `last_session`).
    static func checkClassSummaries(_ summaries: [[String: Any]], examples: [ContractExample]) throws {
        for example in examples {
            let classes = Set(example.expectedClassSummaries.compactMap { $0["class"] as? String })
            for sessionClass in classes {
                let expected = example.expectedClassSummaries.filter { $0["class"] as? String == sessionClass }
                let actual = summaries.filter { $0["class"] as? String == sessionClass }
                #expect(actual.count == expected.count, "\(example.name): summaries of \(sessionClass)")
                var last = try #require(actual.max { ($0["workouts"] as? Int ?? 0) < ($1["workouts"] as? Int ?? 0) })
                var lastExpected = try #require(expected.last)
                last["last_session"] = nil
                lastExpected["last_session"] = nil
                #expect(
                    ExpectationComparison.jsonEqual([last], [lastExpected]),
                    "\(example.name): last summary of \(sessionClass)")
            }
        }
    }

    /// Person summaries, person by person: a person's workouts of different sessions may reach
    /// the person stage in another order than the example's (docs/reference/contract.md), so each
    /// person has as many summaries as expected and the last (the latest `as_of_ts`, the most
    /// workouts) has the expected windows and ratio; one summary is compared whole.
    static func checkPersonSummaries(_ summaries: [[String: Any]], examples: [ContractExample]) throws {
        for example in examples {
            let persons = Set(example.expectedPersonSummaries.compactMap { $0["person"] as? String })
            for person in persons {
                let expected = example.expectedPersonSummaries.filter { $0["person"] as? String == person }
                let actual = summaries.filter { $0["person"] as? String == person }
                #expect(actual.count == expected.count, "\(example.name): summaries of \(person)")
                guard expected.count > 1 else {
                    #expect(ExpectationComparison.jsonEqual(actual, expected), "\(example.name): summary of \(person)")
                    continue
                }
                func rank(_ summary: [String: Any]) -> (Int64, Int) {
                    (
                        (summary["as_of_ts"] as? NSNumber)?.int64Value ?? 0,
                        ((summary["days_28"] as? [String: Any])?["workouts"] as? Int) ?? 0
                    )
                }
                let last = try #require(actual.max { rank($0) < rank($1) })
                var lastExpected = try #require(expected.last)
                var lastActual = last
                lastExpected["last_session"] = nil
                lastActual["last_session"] = nil
                #expect(
                    ExpectationComparison.jsonEqual([lastActual], [lastExpected]),
                    "\(example.name): last summary of \(person)")
            }
        }
    }
}

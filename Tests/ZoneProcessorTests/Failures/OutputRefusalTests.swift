import Foundation
import Synchronization
import Testing
import ZoneEngine
import ZoneHarness
import ZoneKafka
import ZoneProcessor
import ZoneSimulation
import ZoneTestSupport

/// Outputs the broker refuses, injected through the mock cluster's error stacks
/// (`rd_kafka_mock_broker_push_request_error_rtts`): the output topic under test is led by
/// broker 2 and every other topic by broker 1, so only that topic's Produce requests fail.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct OutputRefusalTests {
    static let topics = Topics().all
    static let produceAPI = 0
    static let notLeader = 6, requestTimedOut = 7, messageTooLarge = 10, topicAuthorizationFailed = 29

    /// A two-broker embedded cluster where broker 2 leads only `isolated`.
    static func broker(isolating isolated: String, partitions: Int = 2) throws -> BrokerProcess {
        let broker = try BrokerProcess(partitions: partitions, extraArguments: ["--brokers", "2"])
        for topic in topics {
            #expect(broker.control("leader \(topic) \(topic == isolated ? 2 : 1) \(partitions)"), "leader of \(topic)")
        }
        return broker
    }

    static func session(_ id: String, start: Int, heartRates: [Int]) -> [(String, [UInt8])] {
        var events = [#"{"type":"session_start","session":"\#(id)","ts":\#(start),"person":"p-\#(id)"}"#]
        for (index, value) in heartRates.enumerated() {
            events.append(
                #"{"type":"sample","session":"\#(id)","ts":\#(start + index * 1000),"quantity":"heart_rate","value":\#(value)}"#
            )
        }
        events.append(#"{"type":"session_end","session":"\#(id)","ts":\#(start + heartRates.count * 1000)}"#)
        return events.map { (id, Array($0.utf8)) }
    }

    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    /// Permanent refusals of `workouts-finished` (message too large, not authorized): the
    /// `session_end` that produced each refused summary is dead-lettered as `output_rejected`
    /// with the topic, size and error; the processor and the partition go on, and the sessions
    /// after it finish normally. (After an authorization failure librdkafka fails the topic's
    /// messages at once until its next metadata refresh, so sessions go on being refused for
    /// up to `topic.metadata.refresh.interval.ms`, set short here; each is answered the same way.)
    @Test func permanentlyRefusedOutputsDeadLetterTheirInputAndTheProcessorGoesOn() throws {
        let broker = try Self.broker(isolating: "workouts-finished")
        defer { broker.stop() }
        var configuration = ProcessorConfiguration.forTest(
            bootstrap: broker.bootstrapServers, group: "refused", workers: 1)
        configuration.kafka.properties["topic.metadata.refresh.interval.ms"] = "1000"
        let running = try RunningProcessor(configuration: configuration)
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["workouts-finished", "zonestream-dlq", "workout-events"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        #expect(broker.control("errors 2 \(Self.produceAPI) 1 \(Self.messageTooLarge)"))
        #expect(broker.control("errors 2 \(Self.produceAPI) 1 \(Self.topicAuthorizationFailed)"))

        // One session at a time, each waited for: the two injected errors meet the first two.
        var outcomes: [String] = []
        for index in 0..<30 where outcomes.suffix(3) != ["finished", "finished", "finished"] {
            let id = "refused-\(index)"
            for (key, value) in Self.session(id, start: 1_000_000, heartRates: [100, 150, 170]) {
                try input.send("workout-events", key: key, value: value)
            }
            try input.flush()
            let answered = collector.wait(seconds: 30) { collector in
                collector.records("workouts-finished").contains { $0.key == id }
                    || collector.records("zonestream-dlq").contains {
                        $0.key == id && $0.value.contains("output_rejected")
                    }
            }
            #expect(answered, "\(id) finished or dead-lettered")
            let finished = collector.records("workouts-finished").contains { $0.key == id }
            let rejected = collector.records("zonestream-dlq").filter {
                $0.key == id && $0.value.contains("output_rejected")
            }
            #expect(!(finished && !rejected.isEmpty), "\(id): finished and dead-lettered")
            outcomes.append(finished ? "finished" : rejected.isEmpty ? "nothing" : "output_rejected")
            if let letter = rejected.first {
                let record = Self.object(letter.value)
                #expect(record["reason"] as? String == "output_rejected")
                let detail = record["detail"] as? String ?? ""
                #expect(detail.contains("workouts-finished refused a "), "\(detail)")
                #expect(detail.contains(index == 0 ? "too large" : "uthoriz"), "\(detail)")
                #expect(detail.contains(" bytes") || detail.contains("-byte"), "\(detail)")
                // The input is the session_end: its value, at its offset of workout-events.
                // The collector reads each topic on its own, so the input may show after its dead letter.
                #expect(collector.wait(seconds: 30) { $0.records("workout-events").filter { $0.key == id }.count >= 5 })
                let inputs = collector.records("workout-events").filter { $0.key == id }
                let end = try #require(inputs.last)
                let value = String(
                    decoding: Data(base64Encoded: record["value_base64"] as? String ?? "") ?? Data(), as: UTF8.self)
                #expect(value == end.value)
                #expect(record["partition"] as? Int == Int(end.partition))
            }
        }
        #expect(Array(outcomes.prefix(2)) == ["output_rejected", "output_rejected"], "\(outcomes)")
        #expect(outcomes.suffix(3) == ["finished", "finished", "finished"], "sessions flow again: \(outcomes)")
        let firstFinished = outcomes.firstIndex(of: "finished") ?? outcomes.count
        #expect(!outcomes[firstFinished...].contains("output_rejected"), "\(outcomes)")
        #expect(!outcomes.contains("nothing"))
        let rejectedCount = outcomes.filter { $0 == "output_rejected" }.count
        #expect(running.processor.metrics.outputsRejected.load(ordering: .relaxed) == rejectedCount)
        #expect(running.processor.metrics.deadLetters(.outputRejected) == rejectedCount)
        print("permanent refusals: \(outcomes)")
        #expect(running.stop() == nil, "the processor never stopped")
    }

    /// The person stage's copy of a finished workout, produced when its commit epoch is sealed,
    /// refused for good: the `session_end` that finished the workout is dead-lettered as
    /// `output_rejected` naming the repartition topic (its bytes read again by its coordinates), the
    /// workout itself is out, and the next session's copy reaches the person stage.
    @Test func aRefusedPersonStageCopyDeadLettersTheInputThatFinishedTheWorkout() throws {
        let repartition = Topics().personWorkouts
        let broker = try Self.broker(isolating: repartition)
        defer { broker.stop() }
        let configuration = ProcessorConfiguration.forTest(
            bootstrap: broker.bootstrapServers, group: "refused-copy", workers: 1)
        let running = try RunningProcessor(configuration: configuration)
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers,
            topics: ["workouts-finished", "zonestream-dlq", "workout-events", "person-summaries"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        #expect(broker.control("errors 2 \(Self.produceAPI) 1 \(Self.messageTooLarge)"))

        for (key, value) in Self.session("copy-refused", start: 3_000_000, heartRates: [100, 150, 170]) {
            try input.send("workout-events", key: key, value: value)
        }
        try input.flush()
        let rejected = collector.wait(seconds: 30) { collector in
            collector.records("zonestream-dlq").contains {
                $0.key == "copy-refused" && $0.value.contains("output_rejected")
            }
        }
        #expect(rejected, "the session_end dead-lettered")
        #expect(collector.records("workouts-finished").contains { $0.key == "copy-refused" }, "the workout is out")
        let letter = Self.object(collector.records("zonestream-dlq").first { $0.key == "copy-refused" }?.value ?? "")
        let detail = letter["detail"] as? String ?? ""
        #expect(detail.contains("\(repartition) refused a "), "\(detail)")
        let end = try #require(collector.records("workout-events").last { $0.key == "copy-refused" })
        let value = String(
            decoding: Data(base64Encoded: letter["value_base64"] as? String ?? "") ?? Data(), as: UTF8.self)
        #expect(value == end.value)
        #expect(letter["partition"] as? Int == Int(end.partition))
        #expect(letter["topic"] as? String == "workout-events")
        #expect((letter["offset"] as? Int ?? -1) >= 0, "the input's own offset")

        for (key, value) in Self.session("copy-delivered", start: 3_100_000, heartRates: [100, 150, 170]) {
            try input.send("workout-events", key: key, value: value)
        }
        try input.flush()
        #expect(
            collector.wait(seconds: 30) { $0.records("person-summaries").contains { $0.key == "p-copy-delivered" } },
            "the next copy reached the person stage")
        #expect(!collector.records("person-summaries").contains { $0.key == "p-copy-refused" })
        #expect(running.processor.metrics.deadLetters(.outputRejected) == 1)
        #expect(running.stop() == nil, "the processor never stopped")
    }

    /// Retriable refusals (not leader, request timed out) and outputs that time out in
    /// librdkafka are produced again: the load generator's oracle sees every output.
    @Test func transientlyRefusedOutputsAreRetriedAndNothingIsLost() throws {
        let broker = try Self.broker(isolating: "zone-changes", partitions: 4)
        defer { broker.stop() }
        var configuration = ProcessorConfiguration.forTest(
            bootstrap: broker.bootstrapServers, group: "transient", workers: 2)
        // Short enough that a delayed request outlives it: the processor then produces again.
        configuration.kafka.properties["message.timeout.ms"] = "1500"
        configuration.kafka.properties["request.timeout.ms"] = "1000"
        let running = try RunningProcessor(configuration: configuration)
        #expect(broker.control("errors 2 \(Self.produceAPI) 5 \(Self.notLeader)"))
        #expect(broker.control("errors 2 \(Self.produceAPI) 3 \(Self.requestTimedOut) 2500"))
        let loadgen = try ZoneStreamProcess([
            "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "30", "--session-seconds", "90",
            "--rate", "3000", "--prefix", "transient", "--check", "--check-timeout-s", "120", "--profile-settle-ms",
            "300",
        ])
        #expect(loadgen.waitForExit(seconds: 180), "loadgen finished")
        #expect(loadgen.exitStatus == 0, "\(loadgen.output.suffix(1500))")
        let retried = running.processor.metrics.outputsRetried.load(ordering: .relaxed)
        #expect(retried > 0, "the delayed requests timed out in librdkafka and were produced again")
        #expect(running.processor.metrics.outputsRejected.load(ordering: .relaxed) == 0)
        #expect(running.stop() == nil)
        print("transient refusals: \(retried) outputs produced again, loadgen --check passed")
    }

    /// SIGKILL while a finished workout is still waiting for its delivery report (its Produce
    /// request held 6 s by broker 2), after commit intervals have passed: the changelog has not
    /// recorded the session as finished (it is written only after delivery), so the successor
    /// replays the `session_end` and the workout is produced; nothing is lost.
    @Test func aKillBeforeTheOutputIsDeliveredLosesNothing() throws {
        let broker = try Self.broker(isolating: "workouts-finished", partitions: 1)
        defer { broker.stop() }
        let bootstrap = broker.bootstrapServers
        let first = try FailureTests.assignedProcessor(bootstrap: bootstrap, group: "kill-before-delivery")
        let collector = try OutputCollector(
            bootstrap: bootstrap,
            topics: ["workouts-finished", "zone-changes", "zonestream-changelog", "zonestream-dlq"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: bootstrap)
        #expect(broker.control("errors 2 \(Self.produceAPI) 1 \(Self.requestTimedOut) 6000"))
        for (key, value) in Self.session("held", start: 2_000_000, heartRates: [100, 150, 170]) {
            try input.send("workout-events", key: key, value: value)
        }
        // A later record of the same partition whose output is not held: once its zone change
        // is out, the session_end before it has been applied and its epoch sealed.
        let marker = #"{"type":"sample","session":"marker","ts":2000000,"quantity":"heart_rate","value":120}"#
        try input.send("workout-events", key: "marker", value: Array(marker.utf8))
        try input.flush()
        #expect(collector.wait(seconds: 30) { $0.records("zone-changes").contains { $0.key == "marker" } })
        // The old order wrote the finished session's tombstone within a commit interval (200
        // ms): give it ten, and it must not come while the workout is undelivered.
        let tombstoned = collector.wait(seconds: 2) {
            $0.records("zonestream-changelog").contains { $0.key == "held" && $0.isTombstone }
        }
        #expect(!tombstoned, "the changelog recorded the session as finished before its workout was delivered")
        #expect(!collector.records("workouts-finished").contains { $0.key == "held" }, "still held by the broker")
        #expect(first.signal(SIGKILL), "SIGKILL")

        let successor = try FailureTests.assignedProcessor(bootstrap: bootstrap, group: "kill-before-delivery")
        #expect(
            collector.wait(seconds: 40) { $0.records("workouts-finished").contains { $0.key == "held" } },
            "the successor produced the workout: \(successor.output.suffix(1500))")
        let summary = Self.object(collector.records("workouts-finished").first { $0.key == "held" }?.value ?? "")
        #expect(summary["end_reason"] as? String == "ended")
        #expect(summary["duration_ms"] as? Int == 3000)
        let statistics = (summary["statistics"] as? [String: Any])?["heart_rate"] as? [String: Any]
        #expect(statistics?["samples"] as? Int == 3)
        #expect(
            collector.wait(seconds: 20) {
                $0.records("zonestream-changelog").contains { $0.key == "held" && $0.isTombstone }
            }, "and recorded it as finished after delivery")
        #expect(collector.records("zonestream-dlq").isEmpty)
        #expect(successor.signal(SIGTERM, waitSeconds: 20))
    }
}

import ArgumentParser
import Foundation
import Logging
import ZoneEngine
import ZoneKafka
import ZoneSimulation

/// `zonestream loadgen`: realistic workout traffic for any Kafka, deterministic for a seed,
/// and its own oracle: with `--check` it waits for ZoneStream's finished workouts and
/// compares each with the one it expects.
struct LoadgenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loadgen", abstract: "Produce realistic workout traffic, and check ZoneStream's results.")

    @Option(help: "Kafka bootstrap servers.") var bootstrapServers: String
    @Option(help: "Members per class (concurrent sessions).") var members = 100
    @Option(help: "Simulated seconds per session.") var sessionSeconds = 300
    @Option(help: "Classes run one after another (new session ids each).") var waves = 1
    @Option(help: "Target records per second (0: flat out).") var rate = 0
    @Option(help: "Stop after this many real seconds (0: no limit); open sessions are ended.") var durationS = 0
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Session id prefix.") var prefix = "lg"
    @Option(help: "Fraction of samples dropped (sensor dropouts).") var dropouts = 0.0
    @Option(help: "Fraction of samples sent twice.") var duplicates = 0.0
    @Option(help: "Fraction of samples also sent 3 s late.") var late = 0.0
    @Option(help: "Fraction of samples replaced by malformed JSON.") var malformed = 0.0
    @Option(help: "Send heart rate as sample_series of this many values.") var series = 1
    @Option(help: "max_gap_ms the processor uses (for the oracle).") var maxGapMs: Int64 = 10_000
    @Option(help: "Wait this long after publishing profiles, so processors read them before the sessions start.")
    var profileSettleMs = 1500
    @Flag(help: "Wait for the finished workouts and compare them with the oracle (clean traffic only).")
    var check = false
    @Option(help: "How long --check waits for results.") var checkTimeoutS = 120
    @Option(help: "Write the expected finished workouts (JSON lines) to this file.") var expectFile: String?

    func run() throws {
        let logger = Logs.bootstrap(level: "warning")
        let kafka = KafkaConfiguration(bootstrapServers: bootstrapServers, clientID: "zonestream-loadgen")
        let producer = try KafkaProducer(configuration: kafka)
        var oracle = LoadOracle(settings: EngineSettings(maxGapMs: maxGapMs))
        var sent = 0
        var samples = 0
        let started = Date()
        var lastProgress = started
        var stoppedEarly = false
        let tracker = DeliveryTracker()

        func send(_ record: GymClass.Record) throws {
            try producer.produce(topic: record.topic, key: Array(record.key.utf8), value: Array(record.value.utf8), tracker: tracker)
            sent += 1
            if record.value.hasPrefix("{\"type\":\"sample") { samples += 1 }
        }

        wavesLoop: for wave in 0..<waves {
            var plan = TrafficPlan()
            plan.members = members
            plan.sessionSeconds = sessionSeconds
            plan.seed = seed &+ UInt64(wave)
            plan.dropoutFraction = dropouts
            plan.duplicateFraction = duplicates
            plan.lateFraction = late
            plan.malformedFraction = malformed
            plan.seriesLength = series
            plan.sessionPrefix = "\(prefix)\(wave)"
            plan.startMs = 1_717_200_000_000 + Int64(wave) * Int64(sessionSeconds + 60) * 1000
            var generator = LoadGenerator(plan: plan)
            for record in generator.profiles(topic: "zone-profiles") {
                try send(record)
                oracle.profile(key: record.key, value: record.value)
            }
            try producer.flush(timeoutMs: 30_000)
            // A profile is read when its session starts; give every instance time to read it.
            Thread.sleep(forTimeInterval: Double(profileSettleMs) / 1000)
            var second = 0
            while !generator.isFinished {
                if durationS > 0 && Date().timeIntervalSince(started) >= Double(durationS) {
                    // Out of time: end the wave's open sessions so every workout finishes.
                    let ts = plan.startMs + Int64(second) * 1000
                    for member in 0..<members {
                        let key = "\(plan.sessionPrefix)-\(member)"
                        let record = GymClass.Record(topic: "workout-events", key: key,
                            value: "{\"type\":\"session_end\",\"session\":\"\(key)\",\"ts\":\(ts)}")
                        try send(record)
                        oracle.event(key: record.key, value: record.value)
                    }
                    stoppedEarly = true
                    break wavesLoop
                }
                for record in generator.nextSecond(topic: "workout-events") {
                    try send(record)
                    oracle.event(key: record.key, value: record.value)
                }
                second += 1
                producer.pollDeliveryReports(timeoutMs: 0)
                if rate > 0 {
                    let due = started.addingTimeInterval(Double(sent) / Double(rate))
                    let wait = due.timeIntervalSinceNow
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                }
                if Date().timeIntervalSince(lastProgress) >= 1 {
                    lastProgress = Date()
                    let elapsed = lastProgress.timeIntervalSince(started)
                    FileHandle.standardError.write(Data(String(
                        format: "loadgen: %d records (%d samples) in %.1f s, %.0f records/s\n",
                        sent, samples, elapsed, Double(sent) / elapsed).utf8))
                }
            }
        }
        try producer.flush(timeoutMs: 60_000)
        let elapsed = Date().timeIntervalSince(started)
        let expected = oracle.expectedFinished()
        print(String(format: "loadgen: sent %d records (%d samples) in %.2f s (%.0f records/s); delivered %d, failed %d; %d workouts expected%@",
            sent, samples, elapsed, Double(sent) / max(elapsed, 0.001), tracker.deliveredCount, tracker.failedCount,
            expected.count, stoppedEarly ? " (stopped at the time limit)" : ""))
        if let expectFile {
            let lines = try expected.keys.sorted().map { key in
                String(decoding: try JSONSerialization.data(withJSONObject: expected[key]!, options: [.sortedKeys]), as: UTF8.self)
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: expectFile, atomically: true, encoding: .utf8)
        }
        guard check else { return }
        guard dropouts == 0 && duplicates == 0 && late == 0 && malformed == 0 else {
            throw SettingsError(description: "--check needs clean traffic (no injected faults)")
        }
        try checkResults(expected: expected, kafka: kafka, logger: logger)
    }

    private func checkResults(expected: [String: Any], kafka: KafkaConfiguration, logger: Logger) throws {
        let consumer = try KafkaConsumer(configuration: kafka, groupID: nil, logger: logger)
        let topic = "workouts-finished"
        let partitions = try (0..<Int32(consumer.partitionCount(topic: topic))).map {
            TopicPartition(topic: topic, partition: $0, offset: TopicPartition.beginning)
        }
        try consumer.assign(partitions)
        var actual: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(Double(checkTimeoutS))
        while actual.count < expected.count && Date() < deadline {
            consumer.poll(timeoutMs: 100) { record in
                guard let value = record.value,
                    let object = try? JSONSerialization.jsonObject(with: Data(value)) as? [String: Any],
                    let session = object["session"] as? String, expected[session] != nil
                else { return }
                actual[session] = object
            }
        }
        consumer.close()
        let mismatched = expected.keys.filter { actual[$0] != nil && !JSONComparison.equal(actual[$0], expected[$0]) }
        let missing = expected.count - actual.count
        print("check: \(actual.count - mismatched.count) of \(expected.count) finished workouts match the oracle"
            + (missing > 0 ? ", \(missing) missing" : "") + (mismatched.isEmpty ? "" : ", \(mismatched.count) differ: \(mismatched.sorted().prefix(5))"))
        if let first = mismatched.sorted().first,
            let wanted = try? JSONSerialization.data(withJSONObject: expected[first]!, options: [.sortedKeys]),
            let got = try? JSONSerialization.data(withJSONObject: actual[first]!, options: [.sortedKeys])
        {
            print("expected \(first): \(String(decoding: wanted, as: UTF8.self))")
            print("actual   \(first): \(String(decoding: got, as: UTF8.self))")
        }
        guard missing == 0 && mismatched.isEmpty else { throw ExitCode.failure }
    }
}

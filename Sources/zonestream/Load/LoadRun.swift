import Foundation
import ZoneEngine
import ZoneKafka
import ZoneSimulation

/// One load generator run: the producer, what was sent (counted, and run through the oracle
/// as it goes), the pace and the progress lines.
struct LoadRun {
    let producer: KafkaProducer
    let tracker = DeliveryTracker()
    private(set) var oracle: LoadOracle
    private(set) var sent = 0
    private(set) var samples = 0
    let started = Date()
    private var lastProgress = Date()

    /// Connects; an unreachable broker is an error after `connectTimeoutS`, not an endless retry.
    init(kafka: KafkaConfiguration, maxGapMs: Int64, connectTimeoutS: Int) throws {
        producer = try KafkaProducer(configuration: kafka)
        try BrokerUnavailable.require(
            using: producer, bootstrapServers: kafka.bootstrapServers, timeoutS: connectTimeoutS,
            setting: "--connect-timeout-s")
        oracle = LoadOracle(settings: EngineSettings(maxGapMs: maxGapMs))
    }

    var elapsed: Double { Date().timeIntervalSince(started) }

    private mutating func send(_ record: GymClass.Record) throws {
        try producer.produce(
            topic: record.topic, key: Array(record.key.utf8), value: Array(record.value.utf8), tracker: tracker)
        sent += 1
        if record.value.hasPrefix("{\"type\":\"sample") { samples += 1 }
    }

    /// Sends profiles, and waits `settleMs` once they are delivered: a profile is read when
    /// its session starts, so every instance gets time to read it.
    mutating func sendProfiles(_ records: [GymClass.Record], settleMs: Int) throws {
        for record in records {
            try send(record)
            oracle.profile(key: record.key, value: record.value)
        }
        try producer.flush(timeoutMs: 30_000)
        Thread.sleep(forTimeInterval: Double(settleMs) / 1000)
    }

    /// Sends class plans and waits until they are acknowledged. A plan is read as of each
    /// session's first event only if it reached `class-plans` before that event reached
    /// `workout-events` (contract, section 1), and records sent back to back to two topics can
    /// reach them in either order: librdkafka sends each partition's batch on its own, in the
    /// order its broker thread finds them ready.
    mutating func sendClassPlans(_ records: [GymClass.Record]) throws {
        for record in records {
            try send(record)
            oracle.classPlan(key: record.key, value: record.value)
        }
        try producer.flush(timeoutMs: 30_000)
    }

    /// Sends one second of a class's events, then waits as long as `rate` (records/s, 0: flat
    /// out) asks.
    mutating func send(_ records: [GymClass.Record], rate: Int) throws {
        for record in records {
            try send(record)
            oracle.event(key: record.key, value: record.value)
        }
        producer.pollDeliveryReports(timeoutMs: 0)
        guard rate > 0 else { return }
        let wait = started.addingTimeInterval(Double(sent) / Double(rate)).timeIntervalSinceNow
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    /// Ends every session of `plan`'s class at `ts`, so each workout finishes.
    mutating func endSessions(of plan: TrafficPlan, members: Int, at ts: Int64) throws {
        try send(
            (0..<members).map { member in
                let key = "\(plan.sessionPrefix)-\(member)"
                return GymClass.Record(
                    topic: "workout-events", key: key,
                    value: "{\"type\":\"session_end\",\"session\":\"\(key)\",\"ts\":\(ts)}")
            }, rate: 0)
    }

    /// A progress line on standard error at most once a second; `done` is the share of the
    /// run sent so far.
    mutating func reportProgress(wave: Int, of waves: Int, done: Double) {
        guard Date().timeIntervalSince(lastProgress) >= 1 else { return }
        lastProgress = Date()
        let elapsed = self.elapsed
        let remaining = done > 0 ? elapsed * (1 - min(done, 1)) / done : 0
        let line = String(
            format:
                "loadgen: %d records (%d samples) in %.1f s, %.0f records/s; wave %d of %d, %.0f%% done, about %.0f s left\n",
            sent, samples, elapsed, Double(sent) / elapsed, wave + 1, waves, min(done, 1) * 100, remaining)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Flushes, prints what was sent and delivered, writes the expected finished workouts to
    /// `expectFile` when asked, and returns them by session.
    func finish(stoppedBy reason: String?, expectFile: String?) throws -> [String: Any] {
        try producer.flush(timeoutMs: 60_000)
        let elapsed = self.elapsed
        let expected = oracle.expectedFinished()
        let failures = tracker.takeFailures()
        if !failures.isEmpty {
            let reasons = Set(failures.map { "\($0.error)" }).sorted().prefix(3)
            print("loadgen: \(failures.count) records not delivered: \(reasons.joined(separator: "; "))")
        }
        print(
            String(
                format:
                    "loadgen: sent %d records (%d samples) in %.2f s (%.0f records/s); delivered %d, failed %d; %d workouts expected%@",
                sent, samples, elapsed, Double(sent) / max(elapsed, 0.001), tracker.deliveredCount, tracker.failedCount,
                expected.count, reason.map { " (stopped by \($0))" } ?? ""))
        if let expectFile {
            let lines = try expected.keys.sorted().map { key in
                String(
                    decoding: try JSONSerialization.data(withJSONObject: expected[key] ?? [:], options: [.sortedKeys]),
                    as: UTF8.self)
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: expectFile, atomically: true, encoding: .utf8)
        }
        return expected
    }
}

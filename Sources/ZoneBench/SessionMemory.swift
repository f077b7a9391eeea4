import Foundation
import ZoneHTTP
import ZoneHarness
import ZoneKafka
import ZoneProcessor

/// Resident memory per live session, measured on a `zonestream run` child process as `run`
/// has it (live views on), so only the processor's memory is counted: the bench's own
/// producers and the earlier runs' clients live in the bench process and used to be counted
/// with it.
enum SessionMemory {
    /// Its own input topic, so the child starts with nothing to catch up on.
    static let inputTopic = "bench-memory-events"
    /// The child's consumer group, with a changelog of its own.
    static let group = "bench-memory"

    /// A restart's memory: the RSS held before a SIGKILL, the new child's peak while it
    /// restores the same sessions from the changelog, and its RSS once settled after.
    struct Restore: Sendable {
        let sessions: Int
        let steadyBytes: Int
        let peakBytes: Int
        let settledAfterBytes: Int
        var peakOverSteady: Double { Double(peakBytes) / Double(max(1, steadyBytes)) }
        var peakOverSettledAfter: Double { Double(peakBytes) / Double(max(1, settledAfterBytes)) }
    }

    /// What holding `count` things costs: the RSS of an instance that holds them, less that of
    /// one that does not, over the things held. Warm standbys: a second instance that joined the
    /// group with standbys against one without, over the sessions its standbys held.
    struct MemoryDifference: Sendable {
        let count: Int
        let withBytes: Int
        let withoutBytes: Int
        var bytesEach: Double { Double(withBytes - withoutBytes) / Double(max(1, count)) }
    }

    /// Starts the child (`extraSettings`: more `KEY=VALUE` settings for it), then for each of
    /// `sessionCounts` (cumulative) opens that many sessions with one sample each and returns
    /// the RSS growth per session added in that round (each opened by a `session_start` with a
    /// plan of `planSteps` steps first, when that is over 0); with `standby`, then measures a second
    /// instance's standbys of the first one's partitions; with `restore`, then kills the
    /// child and measures a new one restoring them all.
    static func measure(
        bootstrap: String, topics: (input: String, changelog: String), workers: Int, sessionCounts: [Int],
        producer: KafkaProducer, executable: URL, extraSettings: [String] = [], planSteps: Int = 0,
        classPlanSteps: Int = 0, standby: Bool = false, restore: Bool = false
    ) throws -> (perSession: [Double], standby: MemoryDifference?, restore: Restore?, changelogBytes: Double?) {
        let sessionClass = "bench-memory-class-\(topics.input)"
        if classPlanSteps > 0 {
            try producer.produce(
                topic: Topics().classPlans, key: Array(sessionClass.utf8),
                value: BenchTraffic.classPlan(sessionClass, ts: 1_717_200_000_000, steps: classPlanSteps), tracker: nil)
            try producer.flush(timeoutMs: 60_000)
        }
        let maximum = sessionCounts.max() ?? 0
        let start = { (more: [String]) in
            try ZoneStreamProcess.processor(
                bootstrap: bootstrap, group: group,
                extra: [
                    "--set", "workers=\(workers)", "--set", "commit_interval_ms=1000", "--set",
                    "topics.workout_events=\(topics.input)",
                    "--set", "topics.changelog=\(topics.changelog)", "--set",
                    "max_live_sessions=\(max(1, maximum * 2))", "--set", "state.standby_sessions=\(max(1, maximum))",
                ] + (extraSettings + more).flatMap { ["--set", $0] },
                executable: executable)
        }
        let processor = try start([])
        defer { processor.signal(SIGTERM) }
        let port = try endpoint(of: processor)
        var perSession: [Double] = []
        var total = 0
        for (round, count) in sessionCounts.enumerated() where count > total {
            let before = settledResidentBytes(pid: processor.pid)
            for index in total..<count {
                let id = BenchTraffic.sessionID(index, prefix: "m\(round)-")
                if planSteps > 0 {
                    try producer.produce(
                        topic: topics.input, key: Array(id.utf8),
                        value: BenchTraffic.start(id, ts: 1_717_200_000_000, planSteps: planSteps), tracker: nil)
                } else if classPlanSteps > 0 {
                    try producer.produce(
                        topic: topics.input, key: Array(id.utf8),
                        value: BenchTraffic.start(id, ts: 1_717_200_000_000, sessionClass: sessionClass), tracker: nil)
                }
                try producer.produce(
                    topic: topics.input, key: Array(id.utf8),
                    value: BenchTraffic.sample(id, ts: 1_717_200_000_000, step: 0), tracker: nil)
            }
            try producer.flush(timeoutMs: 60_000)
            try waitForSessions(count, port: port)
            let after = settledResidentBytes(pid: processor.pid)
            perSession.append(Double(after - before) / Double(count - total))
            total = count
        }
        let standbys = standby ? try measureStandby(start) : nil
        let changelogBytes = ChangelogSize.meanSessionRecordBytes(bootstrap: bootstrap, topic: topics.changelog)
        guard restore else { return (perSession, standbys, nil, changelogBytes) }
        let steady = settledResidentBytes(pid: processor.pid)
        processor.signal(SIGKILL)
        let restarted = try start([])
        defer { restarted.signal(SIGTERM) }
        try waitForSessions(total, port: try endpoint(of: restarted), seconds: 600)
        let peak = ProcessMemory.residentBytes(pid: restarted.pid).peak
        let settled = settledResidentBytes(pid: restarted.pid)
        return (
            perSession, standbys,
            Restore(sessions: total, steadyBytes: steady, peakBytes: peak, settledAfterBytes: settled), changelogBytes
        )
    }

    /// A second instance joins (and takes half the partitions), once with standbys of the
    /// first one's half and once without; each is stopped before the next starts.
    private static func measureStandby(_ start: ([String]) throws -> ZoneStreamProcess) throws -> MemoryDifference {
        var figures: [(bytes: Int, sessions: Int)] = []
        for limit in [nil, "0"] {
            let partner = try start(limit.map { ["state.standby_sessions=\($0)"] } ?? [])
            defer { partner.signal(SIGTERM) }
            let port = try endpoint(of: partner)
            let deadline = Date().addingTimeInterval(300)
            var held = (sessions: 0, ready: false)
            // Ready, and (with standbys) holding the first instance's sessions, settled.
            while Date() < deadline {
                let ready = (try? LoopbackHTTPClient.get(port: port, path: "/ready").status) == 200
                let sessions = standbySessions(port: port)
                if ready && (limit != nil || (sessions > 0 && sessions == held.sessions)) { break }
                held = (sessions, ready)
                Thread.sleep(forTimeInterval: 1)
            }
            figures.append((settledResidentBytes(pid: partner.pid), standbySessions(port: port)))
        }
        return MemoryDifference(count: figures[0].sessions, withBytes: figures[0].bytes, withoutBytes: figures[1].bytes)
    }

    /// `zonestream_standby_sessions` of the instance serving `port` (0 when not read).
    private static func standbySessions(port: Int) -> Int {
        let text = (try? LoopbackHTTPClient.get(port: port, path: "/metrics").body) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("zonestream_standby_sessions ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
    }

    private static func endpoint(of processor: ZoneStreamProcess) throws -> Int {
        guard let port = processor.httpPort() else {
            throw BenchError("bench: the memory run's processor did not start: \(processor.output.suffix(800))")
        }
        return port
    }

    private static func waitForSessions(_ count: Int, port: Int, seconds: Double = 120) throws {
        let live = LiveSessionCount.wait(port: port, atLeast: count, seconds: seconds)
        guard live >= count else {
            throw BenchError("bench: only \(live) of \(count) sessions live in the memory run after \(Int(seconds)) s")
        }
    }

    /// "1,234 bytes at 10000, ..." for the log.
    static func describe(_ perSession: [Double], sessionCounts: [Int]) -> String {
        zip(sessionCounts, perSession).map { String(format: "%.0f bytes at %d", $1, $0) }.joined(separator: ", ")
    }

    /// The child's RSS once it has stopped moving: every reading over a window longer than the
    /// processor's heap-trim interval (`memory.trim_interval_ms`, 5 s) and its commit interval
    /// within 1%, so the window holds a trim and the changelog of the new sessions; at most 40 s.
    static func settledResidentBytes(pid: Int32, windowSeconds: Double = 6) -> Int {
        var readings: [(at: Date, bytes: Int)] = []
        let deadline = Date().addingTimeInterval(40)
        while true {
            let now = Date()
            readings.append((now, ProcessMemory.residentBytes(pid: pid).current))
            readings.removeAll { now.timeIntervalSince($0.at) > windowSeconds + 0.5 }
            let values = readings.map(\.bytes)
            if let first = readings.first, now.timeIntervalSince(first.at) >= windowSeconds,
                let low = values.min(), let high = values.max(), high - low <= high / 100
            {
                return values.last ?? high
            }
            if now >= deadline { return values.last ?? 0 }
            Thread.sleep(forTimeInterval: 1)
        }
    }
}

import Foundation
import ZoneHTTP
import ZoneHarness
import ZoneKafka

/// Resident memory per person held by the person stage (each person's log of counted
/// workouts) and the `/people` table (each person's latest summary): a `zonestream run`
/// child that counted one workout for each of `persons` persons, against one whose
/// repartition topic was empty. Counts are cumulative: the workouts of a larger count add to
/// those of the one before, each measured by a fresh child reading them all.
enum PersonMemory {
    /// The bench's own person-stage topics, with and without workouts.
    static let topics = Names(suffix: "")
    static let emptyTopics = Names(suffix: "-empty")

    struct Names {
        let workouts: String
        let changelog: String
        let summaries: String

        init(suffix: String) {
            workouts = "bench-memory-person-workouts\(suffix)"
            changelog = "bench-memory-person-changelog\(suffix)"
            summaries = "bench-memory-person-summaries\(suffix)"
        }

        var all: [String] { [workouts, changelog, summaries] }
    }

    /// The RSS growth per person at each of `counts` (increasing).
    static func measure(
        bootstrap: String, counts: [Int], producer: KafkaProducer, executable: URL, extraSettings: [String]
    ) throws -> [SessionMemory.MemoryDifference] {
        let limit = (counts.max() ?? 1) * 2
        let without = try settledResidentBytes(
            emptyTopics, persons: 0, limit: limit, bootstrap: bootstrap, executable: executable,
            extraSettings: extraSettings)
        var produced = 0
        var differences: [SessionMemory.MemoryDifference] = []
        let end = Int64(Date().timeIntervalSince1970 * 1000)
        for count in counts {
            for index in produced..<count {
                let person = String(format: "gym1/member-%07d", index)
                let value =
                    #"{"schema":1,"type":"person_workout","person":"\#(person)","session":"\#(person)/1","start_ts":\#(end - 3_600_000),"#
                    + #""end_ts":\#(end),"duration_ms":3600000,"points_tenths":\#(index % 400),"calories_kcal":\#(index % 700),"kilojoules_tenths":0}"#
                try producer.produce(
                    topic: topics.workouts, key: Array(person.utf8), value: Array(value.utf8), tracker: nil)
            }
            try producer.flush(timeoutMs: 300_000)
            produced = count
            let with = try settledResidentBytes(
                topics, persons: count, limit: limit, bootstrap: bootstrap, executable: executable,
                extraSettings: extraSettings)
            differences.append(SessionMemory.MemoryDifference(count: count, withBytes: with, withoutBytes: without))
        }
        return differences
    }

    /// A processor's settled RSS once its person stage holds `persons` persons, its person
    /// topics being `names` (each run its own group, so it reads them from the start).
    private static func settledResidentBytes(
        _ names: Names, persons: Int, limit: Int, bootstrap: String, executable: URL, extraSettings: [String]
    ) throws -> Int {
        let processor = try ZoneStreamProcess.processor(
            bootstrap: bootstrap, group: "bench-memory-persons-\(persons)",
            extra: [
                "--set", "topics.person_workouts=\(names.workouts)", "--set",
                "topics.person_changelog=\(names.changelog)",
                "--set", "topics.person_summaries=\(names.summaries)", "--set", "max_persons=\(limit)",
                "--set", "workers=2",
            ] + extraSettings.flatMap { ["--set", $0] },
            executable: executable)
        defer { processor.signal(SIGTERM) }
        guard let port = processor.httpPort() else {
            throw BenchError("bench: the person run's processor did not start: \(processor.output.suffix(800))")
        }
        let deadline = Date().addingTimeInterval(1200)
        while personsHeld(port: port) < persons
            || (try? LoopbackHTTPClient.get(port: port, path: "/ready").status) != 200
        {
            guard Date() < deadline, processor.process.isRunning else {
                throw BenchError(
                    "bench: the person run's processor did not count \(persons) persons: \(processor.output.suffix(800))"
                )
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        return SessionMemory.settledResidentBytes(pid: processor.pid)
    }

    /// `zonestream_persons` from the child's metrics (0 before its first batch).
    private static func personsHeld(port: Int) -> Int {
        guard let text = try? LoopbackHTTPClient.get(port: port, path: "/metrics").body else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("zonestream_persons ") {
            return Int(Double(line.split(separator: " ").last ?? "") ?? 0)
        }
        return 0
    }
}

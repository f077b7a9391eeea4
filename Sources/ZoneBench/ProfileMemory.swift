import Foundation
import ZoneHTTP
import ZoneHarness
import ZoneKafka

/// Resident memory per person in the profile table, which every instance holds whole: a
/// `zonestream run` child that read `persons` full profiles (name, age, heart rates, FTP,
/// weight, sex) before it became ready, against one that read an empty profile topic. Works
/// with any build as the processor, since it needs only readiness (which waits for the table).
enum ProfileMemory {
    /// The topic of the profiles, and an empty one for the baseline.
    static let topic = "bench-memory-profiles"
    static let emptyTopic = "bench-memory-profiles-empty"

    static func measure(
        bootstrap: String, persons: Int, producer: KafkaProducer, executable: URL, extraSettings: [String]
    ) throws -> SessionMemory.MemoryDifference {
        for index in 0..<persons {
            let person = String(format: "gym1/member-%07d", index)
            let value =
                #"{"person":"\#(person)","name":"Member \#(index)","age":\#(20 + index % 50),"resting_hr":\#(50 + index % 20),"#
                + #""max_hr":\#(170 + index % 25),"ftp":\#(150 + index % 150),"weight_kg":\#(50 + index % 60),"#
                + #""sex":"\#(index % 2 == 0 ? "female" : "male")"}"#
            try producer.produce(topic: topic, key: Array(person.utf8), value: Array(value.utf8), tracker: nil)
        }
        try producer.flush(timeoutMs: 120_000)
        let without = try settledResidentBytes(
            profiles: emptyTopic, persons: persons, bootstrap: bootstrap,
            executable: executable, extraSettings: extraSettings)
        let with = try settledResidentBytes(
            profiles: topic, persons: persons, bootstrap: bootstrap,
            executable: executable, extraSettings: extraSettings)
        return SessionMemory.MemoryDifference(count: persons, withBytes: with, withoutBytes: without)
    }

    /// A processor's settled RSS once it is ready, having read the profile topic `profiles`.
    private static func settledResidentBytes(
        profiles: String, persons: Int, bootstrap: String, executable: URL, extraSettings: [String]
    ) throws -> Int {
        let processor = try ZoneStreamProcess.processor(
            bootstrap: bootstrap, group: "bench-memory-\(profiles)",
            extra: [
                "--set", "topics.zone_profiles=\(profiles)", "--set", "max_profiles=\(max(1, persons * 2))",
                "--set", "profiles_catch_up_ms=600000", "--set", "workers=2",
            ] + extraSettings.flatMap { ["--set", $0] },
            executable: executable)
        defer { processor.signal(SIGTERM) }
        guard let port = processor.httpPort() else {
            throw BenchError("bench: the profile run's processor did not start: \(processor.output.suffix(800))")
        }
        let deadline = Date().addingTimeInterval(600)
        while (try? LoopbackHTTPClient.get(port: port, path: "/ready").status) != 200 {
            guard Date() < deadline, processor.process.isRunning else {
                throw BenchError("bench: the profile run's processor was not ready: \(processor.output.suffix(800))")
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return SessionMemory.settledResidentBytes(pid: processor.pid)
    }
}

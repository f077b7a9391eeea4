import Foundation
import Testing
import ZoneTestSupport

/// examples/minutes_per_zone.py, the README's example consumer, against a real broker and a
/// real processor: the contract's first worked example goes in, and the consumer prints that
/// workout's minutes per zone (zone 2 and zone 3 for 10 s each: 0.2 min).
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct ExampleConsumerTests {
    @Test func printsMinutesPerZoneOfAFinishedWorkout() throws {
        let python = SchemaValidator.root.appendingPathComponent(".venv/bin/python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "run scripts/bootstrap.sh --noida-db")
        let broker = try TestBroker(.mock, partitions: 4)
        defer { broker.stop() }
        let example = try #require(try ContractExample.all().first { $0.name.hasPrefix("01_") })
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        for (person, profile) in example.profiles {
            try input.send(
                "zone-profiles", key: person, value: Array(try JSONSerialization.data(withJSONObject: profile)))
        }
        try input.flush()
        let running = try RunningProcessor(configuration: .forTest(bootstrap: broker.bootstrapServers))
        for index in example.events.indices {
            try input.send("workout-events", key: example.events[index].key, value: try example.valueBytes(at: index))
        }
        try input.flush()

        let process = Process()
        process.executableURL = python
        process.arguments = [
            SchemaValidator.root.appendingPathComponent("examples/minutes_per_zone.py").path,
            "--bootstrap-servers", broker.bootstrapServers, "--max-workouts", "1", "--idle-timeout", "60",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(running.stop() == nil)
        #expect(process.terminationStatus == 0)
        #expect(
            printed.contains(
                "morning-run maria heart_rate: Z1 0.0 min | Z2 0.2 min | Z3 0.2 min | Z4 0.0 min | Z5 0.0 min"),
            "\(printed)")
    }
}

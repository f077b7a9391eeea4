import Foundation
import Testing
import ZoneHarness
import ZoneSimulation
import ZoneTestSupport

/// Three separate processes and a third-party client: `zonestream broker`, `zonestream run`,
/// and kcat (Debian's) producing hand-written input and consuming the outputs.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct KcatInteropTests {
    static func run(_ arguments: [String], input: String? = nil, seconds: Double = 30) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/kcat")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        Eventually.holds(within: seconds) { !process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/kcat")))
    func kcatInKcatOut() throws {
        let broker = try BrokerProcess(partitions: 2)
        defer { broker.stop() }
        let processor = Process()
        processor.executableURL = BrokerProcess.executable
        processor.arguments = [
            "run", "--bootstrap-servers", broker.bootstrapServers, "--set", "commit_interval_ms=200",
            "--set", "log_level=warning", "--no-http",
        ]
        processor.standardOutput = FileHandle.nullDevice
        try processor.run()
        defer {
            kill(processor.processIdentifier, SIGTERM)
            processor.waitUntilExit()
        }
        let example = try #require(try ContractExample.all().first { $0.name.hasPrefix("01") })
        for (person, profile) in example.profiles {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: profile), as: UTF8.self)
            _ = try Self.run(
                ["-b", broker.bootstrapServers, "-P", "-t", "zone-profiles", "-K", "\t"], input: "\(person)\t\(json)\n")
        }
        var lines = ""
        for index in example.events.indices {
            lines +=
                "\(example.events[index].key ?? "")\t\(String(decoding: try example.valueBytes(at: index), as: UTF8.self))\n"
        }
        _ = try Self.run(["-b", broker.bootstrapServers, "-P", "-t", "workout-events", "-K", "\t"], input: lines)

        // Consume until the one finished workout and both zone changes arrive (kcat -c stops there).
        let finished = try Self.run([
            "-b", broker.bootstrapServers, "-C", "-t", "workouts-finished", "-o", "beginning", "-c", "1", "-u",
        ])
        let changes = try Self.run([
            "-b", broker.bootstrapServers, "-C", "-t", "zone-changes", "-o", "beginning", "-c", "2", "-u",
        ])
        let finishedObject = try JSONSerialization.jsonObject(with: Data(finished.utf8))
        #expect(ExpectationComparison.jsonEqual(finishedObject, example.expectedFinished.first))
        let changeObjects = try changes.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8))
        }
        #expect(ExpectationComparison.jsonEqual(changeObjects, example.expectedZoneChanges))
        #expect(processor.isRunning, "the processor keeps running")
    }
}

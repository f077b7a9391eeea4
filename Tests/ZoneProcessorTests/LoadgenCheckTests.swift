import Foundation
import Testing
import ZoneSimulation

/// `zonestream loadgen --check` against a broker process and a processor process: every
/// finished workout equals what the load generator's oracle computed.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct LoadgenCheckTests {
    static func zonestream(output: Pipe? = nil, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = BrokerProcess.executable
        process.arguments = arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = output ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test(arguments: [1, 5])
    func loadgenCheckPasses(series: Int) throws {
        let broker = try BrokerProcess(partitions: 4)
        defer { broker.stop() }
        let processor = try Self.zonestream([
            "run", "--bootstrap-servers", broker.bootstrapServers, "--set", "commit_interval_ms=200",
            "--set", "log_level=warning", "--set", "group_id=loadgen-\(series)",
        ])
        defer {
            kill(processor.processIdentifier, SIGTERM)
            processor.waitUntilExit()
        }
        let output = Pipe()
        let loadgen = try Self.zonestream(output: output, [
            "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "40", "--session-seconds", "90",
            "--waves", "2", "--series", "\(series)", "--prefix", "s\(series)w", "--check", "--check-timeout-s", "90",
        ])
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        loadgen.waitUntilExit()
        #expect(loadgen.terminationStatus == 0, "loadgen --check: \(text.suffix(600))")
        #expect(processor.isRunning)
    }
}

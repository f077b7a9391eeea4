import Foundation
import Testing
import ZoneSimulation

/// `zonestream bench --smoke`: the benchmark runs end to end and writes its results
/// (the numbers of a smoke run mean nothing; the real run is in benchmarks/README.md).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BenchSmokeTests {
    @Test func benchSmokeRunWritesResults() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = BrokerProcess.executable
        process.arguments = ["bench", "--smoke", "--partitions", "4", "--output", directory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(150)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let data = try Data(contentsOf: directory.appendingPathComponent("bench.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((report["records"] as? Int) == 20_000)
        #expect((report["zoneStreamRecordsPerSecond"] as? Double ?? 0) > 0)
        #expect((report["ceilingRecordsPerSecond"] as? Double ?? 0) > 0)
        #expect(!(report["latencyDistributionMs"] as? [Double] ?? []).isEmpty)
        let svg = try String(contentsOf: directory.appendingPathComponent("bench.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("polyline"))
    }
}

import Foundation
import Testing
import ZoneSimulation
import ZoneTestSupport

/// `zonestream bench --smoke`: the benchmark runs end to end and writes its results
/// (the numbers of a smoke run mean nothing; the real run is in benchmarks/README.md).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BenchSmokeTests {
    @Test func benchSmokeRunWritesResults() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try ZoneStreamProcess.runToExit(
            ["bench", "--smoke", "--partitions", "4", "--output", directory.path], seconds: 150)
        #expect(status == 0, "\(output.suffix(1000))")
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

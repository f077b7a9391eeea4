import Foundation
import Testing
import ZoneBench
import ZoneHarness
import ZoneTestSupport

/// `zonestream bench failover --quick`: the mechanism of the failover benchmark (instances
/// added, stopped, killed; the broker frozen; sessions watched; the oracle's check), in short
/// steps that measure nothing meaningful.
@Suite(.processSuite(.long), .timeLimit(.minutes(10)))
struct FailoverBenchTests {
    @Test func theFailoverBenchmarkRunsEveryStepAndChecksTheOutputs() throws {
        let results = FileManager.default.temporaryDirectory.appendingPathComponent("zs-failover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: results) }
        let (status, output) = try ZoneStreamProcess.runToExit(
            ["bench", "failover", "--quick", "--results", results.path], seconds: 400)
        #expect(status == 0, "\(output.suffix(2000))")
        let data = try Data(contentsOf: results.appendingPathComponent("failover-smoke.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let runs = try #require(report["runs"] as? [[[String: Any]]])
        let steps = try #require(runs.first)
        #expect(
            steps.compactMap { $0["name"] as? String }
                == ["scale out", "scale in (SIGTERM)", "crash (SIGKILL)", "broker frozen 2 s"])
        for step in steps { #expect((step["longestGapSeconds"] as? Double ?? -1) >= 0, "\(step)") }
        let checks = try #require(report["loadgenChecks"] as? [String])
        #expect(checks.count == 1 && checks[0].hasPrefix("exit 0: check:"), "\(report)")
        let summary = try #require(report["summary"] as? [[String: Any]])
        #expect(summary.count == steps.count, "\(report)")
    }
}

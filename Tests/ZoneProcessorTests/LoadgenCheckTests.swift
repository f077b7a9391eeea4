import Foundation
import Testing
import ZoneHarness
import ZoneSimulation
import ZoneTestSupport

/// `zonestream loadgen --check` against each test broker and a processor process: every
/// finished workout equals what the load generator's oracle computed.
@Suite(.processSuite(.long), .serialized, .timeLimit(.minutes(10)))
struct LoadgenCheckTests {
    @Test(arguments: BrokerKind.selected, [1, 5])
    func loadgenCheckPasses(on kind: BrokerKind, series: Int) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        let processor = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "loadgen-\(series)")
        defer { processor.signal(SIGTERM) }
        let loadgen = try ZoneStreamProcess([
            "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "40", "--session-seconds", "90",
            "--waves", "2", "--series", "\(series)", "--prefix", "s\(series)w", "--check", "--check-timeout-s", "90",
        ])
        #expect(loadgen.waitForExit(seconds: 150))
        #expect(loadgen.exitStatus == 0, "loadgen --check: \(loadgen.output.suffix(600))")
        #expect(processor.isRunning)
    }
}

/// `loadgen --days`: the same members in a class on each of 30 UTC days, so each person's
/// summaries roll their 28-day window; the check compares each person's latest summary.
@Suite(.processSuite(.long), .serialized, .timeLimit(.minutes(10)))
struct LoadgenDaysTests {
    @Test func classesSpreadEvenlyOverDays() {
        let schedule = ClassSchedule(classes: 6, days: 3, classSeconds: 300, firstStartMs: 0)
        #expect((0..<6).map(schedule.day(ofClass:)) == [0, 0, 1, 1, 2, 2])
        #expect(schedule.startMs(ofClass: 1) == 360_000)
        #expect(schedule.startMs(ofClass: 2) == ClassSchedule.dayMs)
        #expect(
            ClassSchedule.defaultStart(days: 3, nowMs: 3 * ClassSchedule.dayMs + 1_234) == ClassSchedule.dayMs + 1_000)
    }

    @Test(arguments: BrokerKind.selected)
    func personHistoryOverThirtyDaysMatchesTheOracle(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        let processor = try ZoneStreamProcess.testProcessor(bootstrap: broker.bootstrapServers, group: "loadgen-days")
        defer { processor.signal(SIGTERM) }
        let loadgen = try ZoneStreamProcess([
            "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "10", "--session-seconds", "60",
            "--days", "30", "--profile-settle-ms", "400", "--prefix", "days", "--check", "--check-timeout-s", "90",
        ])
        #expect(loadgen.waitForExit(seconds: 150))
        #expect(loadgen.exitStatus == 0, "loadgen --check: \(loadgen.output.suffix(600))")
        #expect(loadgen.output.contains("8 of 8 persons' latest summaries match"), "\(loadgen.output.suffix(600))")
    }
}

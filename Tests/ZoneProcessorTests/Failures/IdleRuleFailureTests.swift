import Foundation
import Testing
import ZoneHarness
import ZoneTestSupport

/// docs/reference/contract.md's idle rule with real processes under load: time that passes without
/// the processor is never a session's silence, and only a partition's current owner ends its
/// sessions. The load generator's oracle has no idle timeout in it (every session ends with
/// `session_end`), so a session ended for idleness fails the check, and so does a dropped event.
@Suite(.processSuite(.long), .serialized, .timeLimit(.minutes(10)))
struct IdleRuleFailureTests {
    /// One instance with a 3 s idle timeout is stopped mid-class for over three timeouts while
    /// the class goes on sending; the instance started again applies the waiting events to the
    /// sessions it restores, and finishes each as the class ends it.
    @Test(arguments: BrokerKind.selected)
    func aStoppedProcessorEndsNoSessionWhileItIsAway(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        let settings = ["--set", "idle_timeout_s=3"]
        let first = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "away", extra: settings)
        #expect(first.waitForOutput("partitions assigned", seconds: 30))
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["zone-changes"])
        defer { collector.stop() }
        let loadgen = try FailureTests.loadgen(
            bootstrap: broker.bootstrapServers, prefix: "away", members: 40, sessionSeconds: 90, rate: 300)
        FailureTests.waitForFlow(collector, zoneChanges: 100)
        #expect(first.signal(SIGTERM, waitSeconds: 20), "stops on SIGTERM")
        // The outage: over three idle timeouts of wall clock while the class goes on sending.
        let away = Date().addingTimeInterval(10)
        while Date() < away && loadgen.isRunning { Thread.sleep(forTimeInterval: 0.2) }
        #expect(loadgen.isRunning, "the class was still running when the instance came back")
        let second = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "away", extra: settings)
        FailureTests.expectChecked(loadgen, [first, second])
        #expect(second.signal(SIGTERM, waitSeconds: 20))
    }

    /// Two instances with a 10 s idle timeout; one is frozen (SIGSTOP) for 20 s, long past the
    /// group's 6 s session timeout, so the other takes its partitions and their sessions. On
    /// waking, the frozen one must end none of the sessions it lost: its idle clock stood still
    /// through the stall, and it waits out the session timeout before any idle timeout, by
    /// which time the group has taken the partitions from it. (Session expiry: the embedded
    /// broker; noida-db does not expire a member that stops heartbeating.)
    @Test(arguments: BrokerKind.mockOnly)
    func aFrozenInstanceEndsNoSessionItNoLongerOwns(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        let settings = ["--set", "idle_timeout_s=10"]
        let instances = [
            try ZoneStreamProcess.testProcessor(bootstrap: broker.bootstrapServers, group: "frozen", extra: settings),
            try ZoneStreamProcess.testProcessor(bootstrap: broker.bootstrapServers, group: "frozen", extra: settings),
        ]
        for instance in instances { #expect(instance.waitForOutput("partitions assigned", seconds: 60)) }
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: ["zone-changes"])
        defer { collector.stop() }
        let loadgen = try FailureTests.loadgen(
            bootstrap: broker.bootstrapServers, prefix: "frozen", members: 60, sessionSeconds: 90, rate: 300)
        FailureTests.waitForFlow(collector, zoneChanges: 200)
        let zombie = instances[0]
        kill(zombie.pid, SIGSTOP)
        let thaw = Date().addingTimeInterval(20)
        while Date() < thaw && loadgen.isRunning { Thread.sleep(forTimeInterval: 0.2) }
        kill(zombie.pid, SIGCONT)
        #expect(loadgen.isRunning, "the instance woke while the class was running")
        FailureTests.expectChecked(loadgen, instances)
        for instance in instances { #expect(instance.signal(SIGTERM, waitSeconds: 20)) }
    }
}

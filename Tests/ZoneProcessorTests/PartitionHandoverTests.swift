import Foundation
import Testing
import ZoneBench
import ZoneTestSupport

/// A partition that a rebalance gives back to the instance that had it keeps its state: no
/// drop and no changelog read. Checked by the load generator's oracle through an instance
/// joining mid-class (an eager rebalance revokes every partition, then hands half back).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct PartitionHandoverTests {
    @Test(arguments: BrokerKind.selected)
    func aPartitionGivenBackKeepsItsState(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        let first = try ZoneStreamProcess.processor(bootstrap: broker.bootstrapServers, group: "handover")
        defer { first.signal(SIGTERM) }
        #expect(first.waitForOutput("partitions assigned", seconds: 30), "\(first.output.suffix(800))")
        let loadgen = try ZoneStreamProcess([
            "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "40", "--session-seconds", "90",
            "--rate", "400", "--prefix", "handover", "--check", "--check-timeout-s", "90",
        ])
        #expect(loadgen.waitForOutput("records/s", seconds: 30), "\(loadgen.output.suffix(600))")
        let port = try #require(first.httpPort())
        let second = try ZoneStreamProcess.processor(bootstrap: broker.bootstrapServers, group: "handover")
        defer { second.signal(SIGTERM) }
        // While the group rebalances, /ready says so.
        var reasons: Set<String> = []
        let deadline = Date().addingTimeInterval(30)
        while !reasons.contains(where: { $0.contains("rebalancing: partitions revoked") }) && Date() < deadline {
            if let ready = try? LoopbackHTTPClient.get(port: port, path: "/ready") { reasons.insert(ready.body) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let rebalancing = reasons.first { $0.contains("rebalancing: partitions revoked") }
        #expect(rebalancing?.contains(#""ready":false"#) == true, "\(reasons)")

        #expect(first.waitForOutput("partition kept", seconds: 60), "\(first.output.suffix(2000))")
        #expect(first.output.contains("rebalance_ms"), "the assignment says how long the rebalance took")
        #expect(loadgen.waitForExit(seconds: 150))
        #expect(loadgen.process.terminationStatus == 0, "loadgen --check: \(loadgen.output.suffix(600))")
    }
}

import Foundation
import Testing
import ZoneSimulation
import ZoneSupport
import ZoneTestSupport

/// `zonestream loadgen --check` against each test broker and a processor process: every
/// finished workout equals what the load generator's oracle computed.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct LoadgenCheckTests {
    @Test(arguments: BrokerKind.selected, [1, 5])
    func loadgenCheckPasses(on kind: BrokerKind, series: Int) throws {
        let broker = try TestBroker(kind, partitions: 4)
        defer { broker.stop() }
        let processor = try ZoneStreamProcess.processor(bootstrap: broker.bootstrapServers, group: "loadgen-\(series)")
        defer { processor.signal(SIGTERM) }
        let loadgen = try ZoneStreamProcess([
            "loadgen", "--bootstrap-servers", broker.bootstrapServers, "--members", "40", "--session-seconds", "90",
            "--waves", "2", "--series", "\(series)", "--prefix", "s\(series)w", "--check", "--check-timeout-s", "90",
        ])
        #expect(loadgen.waitForExit(seconds: 150))
        #expect(loadgen.process.terminationStatus == 0, "loadgen --check: \(loadgen.output.suffix(600))")
        #expect(processor.isRunning)
    }
}

import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import ZoneEngine
import ZoneHarness
import ZoneKafka
import ZoneTestSupport

@testable import ZoneProcessor

/// A restore outlives a broker that does not answer for a while: the changelog's watermarks
/// are asked again until the restore's own deadline, instead of stopping the processor after
/// one 5 s timeout (as a loaded CI machine once showed).
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct RestoreRetryTests {
    @Test func aRestoreWaitsOutABrokerThatIsDownForLongerThanOneQuery() throws {
        let broker = try BrokerProcess(partitions: 1)
        defer { broker.stop() }
        let configuration = ProcessorConfiguration(kafka: KafkaConfiguration(bootstrapServers: broker.bootstrapServers))
        #expect(broker.control("down 1"))
        let outcome = NIOLockedValueBox<String?>(nil)
        let started = Date()
        let thread = Thread {
            do {
                let restorer = try ChangelogRestorer(
                    configuration: configuration, logger: Logger(label: "restore-retry-test"))
                var store = SessionStore(settings: EngineSettings())
                var restored = ChangelogRestorer.Restored()
                try restorer.restore(partition: 0, into: &store, &restored, timeoutMs: 60_000)
                outcome.withLockedValue { $0 = "restored \(restored.sessionsAppliedThrough.count) sessions" }
            } catch {
                outcome.withLockedValue { $0 = "failed: \(error)" }
            }
        }
        thread.start()
        // Longer than one watermark query's 5 s timeout, then the broker answers again.
        Eventually.holds(within: 7 - Date().timeIntervalSince(started), poll: 0.1) {
            outcome.withLockedValue { $0 } != nil
        }
        #expect(outcome.withLockedValue { $0 } == nil, "the restore ended while the broker was down")
        #expect(broker.control("up 1"))
        Eventually.holds(within: 60, poll: 0.1) { outcome.withLockedValue { $0 } != nil }
        #expect(outcome.withLockedValue { $0 } == "restored 0 sessions")
    }
}

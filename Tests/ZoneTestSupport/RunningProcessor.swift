public import CoreMetrics
import Foundation
import Logging
import NIOConcurrencyHelpers
import ZoneKafka
public import ZoneProcessor

/// A ``ZoneProcessor`` running on its own thread for a test; `stop()` shuts it down cleanly
/// and reports whether `run()` threw.
public final class RunningProcessor: Sendable {
    public let processor: ZoneProcessor
    private let thread: JoinableThread
    private let failure = FailureBox()

    final class FailureBox: Sendable {
        let text = NIOLockedValueBox<String?>(nil)
        func set(_ value: String) { text.withLockedValue { $0 = $0 ?? value } }
        var value: String? { text.withLockedValue { $0 } }
    }

    public init(configuration: ProcessorConfiguration, metricsFactory: (any MetricsFactory)? = nil) throws {
        var logger = Logger(label: "test-processor")
        logger.logLevel = .warning
        let processor = ZoneProcessor(
            configuration: configuration, logger: logger, metricsFactory: metricsFactory ?? MetricsSystem.factory)
        self.processor = processor
        let failure = self.failure
        thread = JoinableThread(name: "zs-test-run") {
            do { try processor.run() } catch { failure.set("\(error)") }
        }
        Eventually.holds(within: 30, poll: 0.02) { processor.isReady || failure.value != nil }
        if let error = failure.value {
            thread.join()
            throw KafkaError(message: error, operation: "starting processor")
        }
    }

    /// Stops the processor and returns the error `run()` ended with, if any.
    @discardableResult
    public func stop() -> String? {
        processor.stop()
        thread.join()
        return failure.value
    }
}

extension ProcessorConfiguration {
    /// Settings for tests: fast commits, one or two workers.
    public static func forTest(bootstrap: String, group: String = "zonestream-test", workers: Int = 2)
        -> ProcessorConfiguration
    {
        // Short heartbeats so a joining member is noticed quickly.
        var configuration = ProcessorConfiguration(
            kafka: KafkaConfiguration(
                bootstrapServers: bootstrap, clientID: "zs-test",
                properties: ["heartbeat.interval.ms": "250", "session.timeout.ms": "6000"]))
        configuration.groupID = group
        configuration.workers = workers
        configuration.commitIntervalMs = 200
        configuration.profilesCatchUpMs = 10_000
        configuration.createTopicPartitions = 0  // the embedded broker has its topics
        return configuration
    }
}

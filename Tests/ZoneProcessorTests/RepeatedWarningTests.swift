import Logging
import NIOConcurrencyHelpers
import Testing

@testable import ZoneProcessor

/// A burst of the same warning is one line per interval, with the count of the others.
@Suite struct RepeatedWarningTests {
    /// Keeps every log line it is given.
    final class Lines: LogHandler, @unchecked Sendable {
        // @unchecked: `lines` is behind its lock; the rest is set once by swift-log.
        let lines = NIOLockedValueBox<[(String, Logger.Metadata?)]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.withLockedValue { $0.append(("\(event.message)", event.metadata)) } }
    }

    @Test func aBurstIsOneLineAndTheNextCarriesItsCount() {
        let lines = Lines()
        let logger = Logger(label: "test") { _ in lines }
        var warning = RepeatedWarning("commit failed; will retry", intervalMs: 10_000)
        for millisecond in 0..<50 {
            warning.log(to: logger, metadata: ["error": "rebalancing"], nowMs: Int64(millisecond))
        }
        #expect(lines.lines.withLockedValue { $0.count } == 1)
        warning.log(to: logger, metadata: ["error": "rebalancing"], nowMs: 10_000)
        let logged = lines.lines.withLockedValue { $0 }
        #expect(logged.count == 2)
        #expect(logged.last?.0 == "commit failed; will retry")
        #expect(logged.last?.1?["repeated"] == .stringConvertible(49))
    }
}

import Dispatch
import Foundation
import Logging

/// One time budget for the whole stop of `zonestream run` (`shutdown_timeout_s`), so a stop
/// fits the deploy files' grace periods even when the broker is gone: the first SIGTERM or
/// SIGINT starts the graceful stop (the service group's) and this budget; once it is spent,
/// what was not delivered is logged and the process exits with status 1. Nothing is lost:
/// at-least-once, the undelivered outputs' inputs stay uncommitted and are read again;
/// exactly-once, the open transactions are aborted by the broker. A second signal exits at
/// once, as an operator who presses Ctrl-C twice expects.
final class ShutdownBudget {
    private let sources: [any DispatchSourceSignal]

    /// Starts watching SIGTERM and SIGINT beside the service group's own handlers.
    init(seconds: Int, logger: Logger) {
        let queue = DispatchQueue(label: "zonestream.shutdown-budget")
        let signals = SignalCount()
        sources = [SIGTERM, SIGINT].map { signal in
            // The service group ignores the default action too; both watch the same signal.
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler {
                signals.count += 1
                if signals.count > 1 {
                    Self.exit(logger, "a second stop signal: exiting now, without waiting for the stop to finish")
                }
                queue.asyncAfter(deadline: .now() + .seconds(seconds)) {
                    Self.exit(
                        logger,
                        "shutdown_timeout_s (\(seconds) s) spent: exiting with outputs not delivered; at-least-once reads their inputs again, exactly-once aborts the open transactions"
                    )
                }
            }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    private static func exit(_ logger: Logger, _ message: Logger.Message) -> Never {
        logger.error(message)
        fflush(nil)
        _exit(1)
    }

    /// Signals seen so far; touched only on the budget's serial queue.
    private final class SignalCount: @unchecked Sendable {
        // @unchecked: read and written only by handlers on one serial DispatchQueue.
        var count = 0
    }
}

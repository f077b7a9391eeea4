import Foundation
import NIOConcurrencyHelpers
import ServiceLifecycle
import Synchronization
import ZoneProcessor

/// Runs blocking work (the processor, the load generator) on its own thread as a
/// swift-service-lifecycle service: graceful shutdown or cancellation calls `stop`, and the
/// service ends when the work has returned and its thread is joined.
struct BlockingService: Service {
    let name: String
    let work: @Sendable () throws -> Void
    let stop: @Sendable () -> Void

    func run() async throws {
        let thread = NIOLockedValueBox<JoinableThread?>(nil)
        // The work has returned once the continuation is resumed: join its thread.
        defer { thread.withLockedValue { $0 }?.join() }
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    thread.withLockedValue {
                        $0 = JoinableThread(name: name) { [work] in
                            do {
                                try work()
                                continuation.resume()
                            } catch {
                                continuation.resume(throwing: error)
                            }
                        }
                    }
                }
            } onCancel: {
                stop()
            }
        } onGracefulShutdown: {
            stop()
        }
    }
}

extension BlockingService {
    /// A ``ZoneProcessor`` as a service: it stops (drains, commits, leaves the group) on shutdown.
    static func processor(_ processor: ZoneProcessor) -> BlockingService {
        BlockingService(name: "zs-processor", work: { try processor.run() }, stop: { processor.stop() })
    }
}

/// A flag blocking work polls to stop early.
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}

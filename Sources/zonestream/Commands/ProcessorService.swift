import Foundation
import ServiceLifecycle
import ZoneProcessor

/// Runs a ``ZoneProcessor`` (which blocks its thread) as a swift-service-lifecycle service:
/// graceful shutdown or cancellation asks it to stop, and the service ends when it has.
struct ProcessorService: Service {
    let processor: ZoneProcessor

    func run() async throws {
        let processor = self.processor
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let thread = Thread {
                        do {
                            try processor.run()
                            continuation.resume()
                        } catch {
                            continuation.resume(throwing: error)
                        }
                    }
                    thread.name = "zs-processor"
                    thread.start()
                }
            } onCancel: {
                processor.stop()
            }
        } onGracefulShutdown: {
            processor.stop()
        }
    }
}

import Foundation
import ServiceLifecycle
import Synchronization
import ZoneProcessor

/// Runs a ``ZoneProcessor`` (which blocks its thread) as a swift-service-lifecycle service:
/// graceful shutdown or cancellation asks it to stop, and the service ends when it has and
/// its thread is joined.
struct ProcessorService: Service {
    let processor: ZoneProcessor

    func run() async throws {
        let processor = self.processor
        let thread = Mutex<JoinableThread?>(nil)
        // The processor's thread has returned once the continuation is resumed: join it.
        defer { thread.withLock { $0 }?.join() }
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    thread.withLock {
                        $0 = JoinableThread(name: "zs-processor") {
                            do {
                                try processor.run()
                                continuation.resume()
                            } catch {
                                continuation.resume(throwing: error)
                            }
                        }
                    }
                }
            } onCancel: {
                processor.stop()
            }
        } onGracefulShutdown: {
            processor.stop()
        }
    }
}

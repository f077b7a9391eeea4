import Synchronization

/// Counts one producer user's messages in flight, so it can tell when everything it
/// produced so far has been delivered (at-least-once: commit input offsets only then).
///
/// Incremented by the producing thread, decremented by the delivery-report thread.
public final class DeliveryTracker: Sendable {
    private let outstanding = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)
    private let delivered = Atomic<Int>(0)
    private let lastFailure = Mutex<String?>(nil)

    public init() {}

    /// Messages produced and not yet acknowledged.
    public var inFlight: Int { outstanding.load(ordering: .acquiring) }
    /// Messages that could not be delivered (after librdkafka's retries).
    public var failedCount: Int { failures.load(ordering: .acquiring) }
    public var deliveredCount: Int { delivered.load(ordering: .relaxed) }
    public var lastError: String? { lastFailure.withLock { $0 } }

    func willProduce() { outstanding.add(1, ordering: .relaxed) }

    func cancelled() { outstanding.subtract(1, ordering: .releasing) }

    func reported(error: String?) {
        if let error {
            failures.add(1, ordering: .relaxed)
            lastFailure.withLock { $0 = error }
        } else {
            delivered.add(1, ordering: .relaxed)
        }
        outstanding.subtract(1, ordering: .releasing)
    }
}

import Dispatch
import Foundation
import NIOConcurrencyHelpers
import Synchronization

/// Counts one producer user's messages in flight, so it can tell when everything it
/// produced so far has been delivered (at-least-once: commit input offsets only then), and
/// keeps every message the broker refused so its user can retry it or answer it otherwise.
///
/// Incremented by the producing thread, decremented by the delivery-report thread.
public final class DeliveryTracker: Sendable {
    private let outstanding = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)
    private let delivered = Atomic<Int>(0)
    private let answers = Atomic<Int>(0)
    private let refused = NIOLockedValueBox<[DeliveryFailure]>([])
    /// The receipts of delivered messages not yet freed: a stack linked through each receipt's
    /// ``DeliveryReceipt/nextParked``, pushed by delivery reports and taken whole. The top
    /// receipt's address as a number (0: none), which keeps the class `Sendable`.
    private let parked = Atomic<UInt>(0)
    /// Where each delivered message's produce-to-acknowledgement time goes, if anywhere.
    private let latency: DeliveryLatency?

    public init(latency: DeliveryLatency? = nil) {
        self.latency = latency
    }

    deinit { freeParked() }

    /// Messages produced and not yet acknowledged.
    public var inFlight: Int { outstanding.load(ordering: .acquiring) }
    /// Messages that could not be delivered (after librdkafka's retries), taken or not.
    public var failedCount: Int { failures.load(ordering: .acquiring) }
    public var deliveredCount: Int { delivered.load(ordering: .relaxed) }
    /// The error of the latest refused message not yet taken, for logs.
    public var lastError: String? { refused.withLockedValue { $0.last?.error.message } }

    /// Takes the refused messages reported so far (each is returned once).
    public func takeFailures() -> [DeliveryFailure] {
        refused.withLockedValue { failures in
            defer { failures.removeAll() }
            return failures
        }
    }

    /// Called by each produce with this tracker, on the producing thread: which also frees the
    /// receipts parked since, so they go back to the heap they came from.
    func willProduce() {
        if parked.load(ordering: .relaxed) != 0 { freeParked() }
        outstanding.add(1, ordering: .relaxed)
    }

    /// Keeps a delivered message's receipt (still retained) until ``willProduce()`` or this
    /// tracker's end frees it. At most what was delivered since the last produce waits here.
    func park(_ receipt: Unmanaged<DeliveryReceipt>) {
        let address = UInt(bitPattern: receipt.toOpaque())
        var head = parked.load(ordering: .relaxed)
        while true {
            // Borrowed: a retained reference, released after the push, could free it here.
            receipt._withUnsafeGuaranteedRef { $0.nextParked = UnsafeMutableRawPointer(bitPattern: head) }
            let (exchanged, current) = parked.compareExchange(
                expected: head, desired: address, successOrdering: .releasing, failureOrdering: .relaxed)
            if exchanged { return }
            head = current
        }
    }

    /// Takes the whole stack at once, so a push racing with it is never lost: it lands on the
    /// empty stack for the next call.
    private func freeParked() {
        var next = UnsafeMutableRawPointer(bitPattern: parked.exchange(0, ordering: .acquiring))
        while let pointer = next {
            let receipt = Unmanaged<DeliveryReceipt>.fromOpaque(pointer)
            // Borrowed to read the link: the stack's own reference is the one released.
            next = receipt._withUnsafeGuaranteedRef { $0.nextParked }
            receipt.release()
        }
    }

    func cancelled() { outstanding.subtract(1, ordering: .releasing) }

    /// Counts an answer its user is still making to a refused message (one that must first
    /// read something from the network) as in flight, so the tracker does not read as
    /// settled before the answer is produced into it. End it with ``answerProduced()``.
    public func answerStarted() {
        answers.add(1, ordering: .relaxed)
        outstanding.add(1, ordering: .relaxed)
    }

    /// Ends an answer begun with ``answerStarted()``, after producing it into this tracker.
    public func answerProduced() {
        answers.subtract(1, ordering: .releasing)
        outstanding.subtract(1, ordering: .releasing)
    }

    /// Answers begun and not yet produced.
    public var answersInProgress: Int { answers.load(ordering: .acquiring) }

    /// Waits until every answer begun is produced, for at most `timeoutMs`; false if some is
    /// not. For a user that must have them before going on (a transaction about to commit).
    public func waitForAnswers(timeoutMs: Int) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(timeoutMs, 0)) * 1_000_000
        while answersInProgress > 0 {
            guard DispatchTime.now().uptimeNanoseconds < deadline else { return false }
            usleep(1000)
        }
        return true
    }

    /// `latencyMicroseconds`: librdkafka's produce-to-acknowledgement time of a delivered
    /// message (-1 when it has none).
    func reported(failure: DeliveryFailure?, latencyMicroseconds: Int64 = -1) {
        if let failure {
            refused.withLockedValue { $0.append(failure) }
            failures.add(1, ordering: .relaxed)
        } else {
            delivered.add(1, ordering: .relaxed)
            latency?.delivered(microseconds: latencyMicroseconds)
        }
        outstanding.subtract(1, ordering: .releasing)
    }
}

/// A message the broker refused (or librdkafka gave up on), with everything needed to produce
/// it again or to answer it otherwise (with its context).
public struct DeliveryFailure: Sendable {
    public let topic: String
    /// The partition it was produced to explicitly; nil when partitioned by key.
    public let partition: Int32?
    public let key: [UInt8]?
    public let value: [UInt8]
    public let error: KafkaError
    /// What the producer's user attached to the message (``KafkaProducer/produce``), returned
    /// as given: whatever it needs to answer the refusal.
    public let context: (any Sendable)?

    /// Whether the broker refused the message for good (size, authorization, an invalid
    /// record or topic): producing it again cannot succeed. Anything else (timeouts, leader
    /// changes, a broker down past librdkafka's retries) is worth producing again.
    public var isPermanent: Bool { KafkaError.isPermanentDeliveryError(error.code) }
}

import NIOConcurrencyHelpers
import Synchronization

/// Counts one producer user's messages in flight, so it can tell when everything it
/// produced so far has been delivered (at-least-once: commit input offsets only then), and
/// keeps every message the broker refused so its user can retry it or dead-letter its input.
///
/// Incremented by the producing thread, decremented by the delivery-report thread.
public final class DeliveryTracker: Sendable {
    private let outstanding = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)
    private let delivered = Atomic<Int>(0)
    private let refused = NIOLockedValueBox<[DeliveryFailure]>([])

    public init() {}

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

    func willProduce() { outstanding.add(1, ordering: .relaxed) }

    func cancelled() { outstanding.subtract(1, ordering: .releasing) }

    func reported(failure: DeliveryFailure?) {
        if let failure {
            refused.withLockedValue { $0.append(failure) }
            failures.add(1, ordering: .relaxed)
        } else {
            delivered.add(1, ordering: .relaxed)
        }
        outstanding.subtract(1, ordering: .releasing)
    }
}

/// The input record an output was produced for, carried with the output so that a refusal by
/// the broker can be traced back to it (and the input dead-lettered as `output_rejected`).
///
/// One allocation holds the input's key and value bytes: an origin is made for every input
/// that has outputs and read only when one is refused, so it is a single reference to copy
/// (two arrays and a string were three retains and two allocations per zone change, a twentieth
/// of a worker's time, perf).
///
/// `@unchecked Sendable`: its one allocation (a `ManagedBuffer`, which Swift does not let be
/// `Sendable`) is written once, in ``init(topic:partition:offset:keyBytes:valueBytes:)``,
/// before the origin can be shared, and only read after.
public struct OutputOrigin: @unchecked Sendable {
    private let storage: Storage

    public var topic: String { storage.header.topic }
    public var partition: Int32 { storage.header.partition }
    /// -1 when no input record produced the output (a session finished by its idle timeout).
    public var offset: Int64 { storage.header.offset }
    public var key: [UInt8]? { storage.bytes(storage.header.key) }
    public var value: [UInt8]? { storage.bytes(storage.header.value) }

    public init(topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8]?) {
        func lend(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> OutputOrigin) -> OutputOrigin {
            guard let bytes else { return body(nil) }
            return bytes.withUnsafeBytes { body($0) }
        }
        self = lend(key) { key in
            lend(value) { value in
                OutputOrigin(topic: topic, partition: partition, offset: offset, keyBytes: key, valueBytes: value)
            }
        }
    }

    /// An origin copying `keyBytes` and `valueBytes` (nil: the record has none), which need
    /// only be valid during the call.
    public init(
        topic: String, partition: Int32, offset: Int64, keyBytes: UnsafeRawBufferPointer?,
        valueBytes: UnsafeRawBufferPointer?
    ) {
        let keyCount = keyBytes?.count ?? 0
        let header = Header(
            topic: topic, partition: partition, offset: offset,
            key: keyBytes.map { 0..<$0.count }, value: valueBytes.map { keyCount..<(keyCount + $0.count) })
        let storage = Storage.create(minimumCapacity: keyCount + (valueBytes?.count ?? 0)) { _ in header }
        // `create` returns the ManagedBuffer type; it is a Storage, as asked.
        self.storage = unsafeDowncast(storage, to: Storage.self)
        self.storage.withUnsafeMutablePointerToElements { elements in
            if let keyBytes, let base = keyBytes.baseAddress {
                UnsafeMutableRawPointer(elements).copyMemory(from: base, byteCount: keyBytes.count)
            }
            if let valueBytes, let base = valueBytes.baseAddress {
                UnsafeMutableRawPointer(elements + keyCount).copyMemory(from: base, byteCount: valueBytes.count)
            }
        }
    }

    private struct Header {
        let topic: String
        let partition: Int32
        let offset: Int64
        /// Where the key and the value lie among the bytes; nil: the record has none.
        let key: Range<Int>?
        let value: Range<Int>?
    }

    private final class Storage: ManagedBuffer<Header, UInt8> {
        func bytes(_ span: Range<Int>?) -> [UInt8]? {
            guard let span else { return nil }
            return withUnsafeMutablePointerToElements {
                Array(UnsafeBufferPointer(start: $0 + span.lowerBound, count: span.count))
            }
        }
    }
}

/// A message the broker refused (or librdkafka gave up on), with everything needed to produce
/// it again or to dead-letter the input it was produced for.
public struct DeliveryFailure: Sendable {
    public let topic: String
    /// The partition it was produced to explicitly; nil when partitioned by key.
    public let partition: Int32?
    public let key: [UInt8]?
    public let value: [UInt8]
    public let error: KafkaError
    public let origin: OutputOrigin?
    /// What the producer's user said this message is (kept from ``KafkaProducer/produce``).
    public let tag: Int

    /// Whether the broker refused the message for good (size, authorization, an invalid
    /// record or topic): producing it again cannot succeed. Anything else (timeouts, leader
    /// changes, a broker down past librdkafka's retries) is worth producing again.
    public var isPermanent: Bool { KafkaError.isPermanentDeliveryError(error.code) }
}

/// One produced message's delivery context, handed to librdkafka as the message opaque.
///
/// - Important: ownership. ``KafkaProducer/produce(topic:key:value:tracker:partition:origin:tag:)``
///   passes it retained (`passRetained`) and exactly one of two places releases it: the
///   delivery-report callback (`takeRetainedValue`), or the produce call itself when librdkafka
///   refuses the message synchronously. It keeps its tracker alive until then.
final class DeliveryReceipt {
    let tracker: DeliveryTracker
    let origin: OutputOrigin?
    let partition: Int32?
    let tag: Int

    init(tracker: DeliveryTracker, origin: OutputOrigin?, partition: Int32?, tag: Int) {
        self.tracker = tracker
        self.origin = origin
        self.partition = partition
        self.tag = tag
    }
}

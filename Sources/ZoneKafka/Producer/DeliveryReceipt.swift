/// One produced message's delivery context, handed to librdkafka as the message opaque: its
/// tracker, its user's context and its explicit partition. A managed buffer with no elements,
/// so the delivery-report path reads its header in place (a class's stored properties are
/// checked for exclusive access on every read).
///
/// - Important: ownership. ``KafkaProducer/produce(to:key:value:tracker:partition:context:header:)``
///   passes it retained (`passRetained`) and exactly one of three places releases it: the
///   produce call itself when librdkafka refuses the message synchronously; the
///   delivery-report callback, for a refused message; or, for a delivered one, its tracker
///   (``DeliveryTracker/park(_:)``), on the thread that produces next with it or when the
///   tracker goes. It keeps its tracker alive until its delivery is reported.
final class DeliveryReceipt: ManagedBuffer<DeliveryReceiptHeader, UInt8> {
    static func make(tracker: DeliveryTracker, context: (any Sendable)?, partition: Int32?) -> DeliveryReceipt {
        // The header is made in the closure: one made before it was copied in (the tracker
        // retained, the context copied) and then destroyed, on every message.
        let made = create(minimumCapacity: 0) { _ in
            DeliveryReceiptHeader(tracker: tracker, context: context, partition: partition)
        }
        // `create` returns the ManagedBuffer type; it is a DeliveryReceipt, as asked.
        return unsafeDowncast(made, to: DeliveryReceipt.self)
    }

    /// Takes the tracker out, once its delivery is reported: a receipt parked with its tracker
    /// must not keep it alive. Read in place, as reading the stored `header` checks exclusive
    /// access at run time (`swift_beginAccess`) on every delivery report.
    func detachTracker() -> DeliveryTracker? {
        withUnsafeMutablePointerToHeader { header in
            defer { header.pointee.tracker = nil }
            return header.pointee.tracker
        }
    }

    /// The next receipt parked with the same tracker (``DeliveryTracker/park(_:)``).
    var nextParked: UnsafeMutableRawPointer? {
        get { withUnsafeMutablePointerToHeader { $0.pointee.nextParked } }
        set { withUnsafeMutablePointerToHeader { $0.pointee.nextParked = newValue } }
    }
}

struct DeliveryReceiptHeader {
    /// nil once the delivery is reported (``DeliveryReceipt/detachTracker()``).
    var tracker: DeliveryTracker?
    let context: (any Sendable)?
    let partition: Int32?
    var nextParked: UnsafeMutableRawPointer? = nil
}

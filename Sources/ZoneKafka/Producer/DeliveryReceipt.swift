/// One produced message's delivery context, handed to librdkafka as the message opaque: its
/// tracker, its user's context, its explicit partition, and the bytes its user attached to it
/// (``MessageAttachment``), which follow the header in the same allocation.
///
/// - Important: ownership. ``KafkaProducer/produce(to:key:value:tracker:partition:context:attachedKey:attachedValue:header:)``
///   passes it retained (`passRetained`) and exactly one of three places releases it: the
///   produce call itself when librdkafka refuses the message synchronously; the
///   delivery-report callback, for a refused message; or, for a delivered one, its tracker
///   (``DeliveryTracker/park(_:)``), on the thread that produces next with it or when the
///   tracker goes. It keeps its tracker alive until its delivery is reported.
final class DeliveryReceipt: ManagedBuffer<DeliveryReceiptHeader, UInt8> {
    /// A receipt copying `attachedKey` and `attachedValue`, which need only be valid during the call.
    static func make(
        tracker: DeliveryTracker, context: (any Sendable)?, partition: Int32?, attachedKey: UnsafeRawBufferPointer?,
        attachedValue: UnsafeRawBufferPointer?
    ) -> DeliveryReceipt {
        let keyCount = attachedKey?.count ?? 0
        // The header is made in the closure: one made before it was copied in (the tracker
        // retained, the context copied) and then destroyed, on every message.
        let made = create(minimumCapacity: keyCount + (attachedValue?.count ?? 0)) { _ in
            DeliveryReceiptHeader(
                tracker: tracker, context: context, partition: partition, attachedKey: attachedKey.map { 0..<$0.count },
                attachedValue: attachedValue.map { keyCount..<(keyCount + $0.count) })
        }
        // `create` returns the ManagedBuffer type; it is a DeliveryReceipt, as asked.
        let receipt = unsafeDowncast(made, to: DeliveryReceipt.self)
        receipt.withUnsafeMutablePointerToElements { elements in
            if let attachedKey, let base = attachedKey.baseAddress {
                UnsafeMutableRawPointer(elements).copyMemory(from: base, byteCount: attachedKey.count)
            }
            if let attachedValue, let base = attachedValue.baseAddress {
                UnsafeMutableRawPointer(elements + keyCount).copyMemory(from: base, byteCount: attachedValue.count)
            }
        }
        return receipt
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

    /// The attached bytes, copied out (only a refused message needs them).
    var attachment: MessageAttachment {
        MessageAttachment(key: bytes(header.attachedKey), value: bytes(header.attachedValue))
    }

    private func bytes(_ span: Range<Int>?) -> [UInt8]? {
        guard let span else { return nil }
        return withUnsafeMutablePointerToElements {
            Array(UnsafeBufferPointer(start: $0 + span.lowerBound, count: span.count))
        }
    }
}

struct DeliveryReceiptHeader {
    /// nil once the delivery is reported (``DeliveryReceipt/detachTracker()``).
    var tracker: DeliveryTracker?
    let context: (any Sendable)?
    let partition: Int32?
    /// Where the attachment's key and value lie among the receipt's bytes; nil: it has none.
    let attachedKey: Range<Int>?
    let attachedValue: Range<Int>?
    var nextParked: UnsafeMutableRawPointer? = nil
}

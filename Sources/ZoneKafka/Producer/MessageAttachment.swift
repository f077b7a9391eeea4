/// Bytes a caller attaches to a message, in two parts of its choosing (a key and a value),
/// kept with the message until its delivery is reported and handed back in its
/// ``DeliveryFailure``. A consume-transform-produce caller attaches the input record the message
/// was made from, so that it can answer a refusal with that input, which is long gone from
/// the consumer by then; the producer does not read them.
///
/// A produce call lends them as buffers and the producer copies them into the message's
/// receipt, in the receipt's own allocation: a message with an attachment costs one allocation
/// besides librdkafka's.
public struct MessageAttachment: Sendable {
    /// nil: no key attached.
    public var key: [UInt8]?
    /// nil: no value attached.
    public var value: [UInt8]?
    public init(key: [UInt8]? = nil, value: [UInt8]? = nil) {
        self.key = key
        self.value = value
    }

    /// Lends the key and value as buffers for the duration of `body` (to a produce call, say).
    public func withBuffers<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer?, UnsafeRawBufferPointer?) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let lent: Swift.Result<Result, Failure> = Self.lend(key) { key in
            Self.lend(value) { value in
                Swift.Result { () throws(Failure) in try body(key, value) }
            }
        }
        return try lent.get()
    }

    private static func lend<Lent>(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> Lent) -> Lent {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBytes { body($0) }
    }
}

/// The key and value of the input record a message was produced for (consume, transform,
/// produce), kept with the message until its delivery is reported and handed back in its
/// ``DeliveryFailure``: a refused message's user can then dead-letter the input, which is long
/// gone from the consumer by then.
///
/// A produce call lends them as buffers and the producer copies them into the message's
/// receipt, in the receipt's own allocation: a message with an input costs one allocation
/// besides librdkafka's.
public struct MessageInput: Sendable {
    /// nil: the input has no key (or there is no input).
    public var key: [UInt8]?
    /// nil: the input has no value (or there is no input).
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

public import ZoneEngine

/// Decodes `workout-events` record values: the production decoder.
///
/// Strict (it accepts exactly the JSON jansson accepts, see ``StrictJSONParser``) and
/// allocation-free for a `sample` whose session id fits Swift's small-string form (15 bytes):
/// the parse tape is reused across messages. Samples in their plain form skip the tape
/// (``SampleFastPath``, proven to give the same results). Not thread-safe: one per worker.
public struct WorkoutEventDecoder {
    /// Values longer than this are `too_large` (`max_message_bytes`, default 65536).
    public var maxMessageBytes: Int
    /// How far an event's time may run ahead of the earlier of its record's Kafka timestamp and
    /// the processor's clock when it read the record (`max_future_ms`, default a day); beyond
    /// it the record is `out_of_range`.
    public var maxFutureMs: Int64
    private var tape = JSONTape()
    /// Session ids seen lately, so a sample does not make its id's `String` again.
    @usableFromInline var sessionIds = SessionIdCache()

    public init(maxMessageBytes: Int = 65_536, maxFutureMs: Int64 = 86_400_000) {
        self.maxMessageBytes = maxMessageBytes
        self.maxFutureMs = maxFutureMs
        tape.nodes.reserveCapacity(64)
    }

    /// Decodes one record. `value` nil is a record without a value (a tombstone);
    /// `key` nil is a record without a key.
    ///
    /// Inlinable, so a worker's `switch` over the result works on the sample where it is
    /// made: returned through a `Result` from another module, every sample's event was
    /// copied and then destroyed through the enum's outlined functions (perf).
    @inlinable @inline(__always)
    public mutating func decode(value: UnsafeRawBufferPointer?, key: UnsafeRawBufferPointer?)
        -> Result<WorkoutEvent, Rejection>
    {
        guard let value else { return .failure(Rejection(.malformedJSON, "record has no value")) }
        guard value.count <= maxMessageBytes else {
            return .failure(Rejection(.tooLarge, "value of \(value.count) bytes is over \(maxMessageBytes)"))
        }
        if let sample = SampleFastPath.decode(value, key: key, ids: &sessionIds) { return .success(sample) }
        return decodeGeneral(value: value, key: key)
    }

    /// Decodes one record read from Kafka. Its event's time may be at most `maxFutureMs` after
    /// the earlier of the record's timestamp (`recordTimestampMs`, -1 when the record has none)
    /// and the processor's clock when it read the record (`readAtMs`): a device clock years
    /// ahead, or a gateway sending microseconds, would otherwise end its session's history and
    /// its person's, and under `CreateTime` the record's timestamp is whatever the producer set,
    /// so it alone bounds nothing (contract, section 3).
    @inlinable @inline(__always)
    public mutating func decode(
        value: UnsafeRawBufferPointer?, key: UnsafeRawBufferPointer?, recordTimestampMs: Int64, readAtMs: Int64
    ) -> Result<WorkoutEvent, Rejection> {
        let decoded = decode(value: value, key: key)
        let bound = recordTimestampMs >= 0 ? min(recordTimestampMs, readAtMs) : readAtMs
        guard case .success(let event) = decoded, event.latestTimestamp - bound > maxFutureMs else { return decoded }
        return .failure(futureRejection(event, bound: bound, fromRecord: bound == recordTimestampMs))
    }

    @usableFromInline
    func futureRejection(_ event: WorkoutEvent, bound: Int64, fromRecord: Bool) -> Rejection {
        let which = event.latestTimestamp == event.timestamp ? "'ts'" : "the series' last value's time"
        let reference =
            fromRecord
            ? "the record's Kafka timestamp \(bound)" : "the processor's clock when it read the record (\(bound))"
        return Rejection(
            .outOfRange,
            "\(which) \(event.latestTimestamp) is more than max_future_ms (\(maxFutureMs)) after \(reference)"
        )
    }

    /// The general path: the strict parser's tape, then the contract's checks in order. It
    /// decides every record the fast path leaves (and, in tests, the ones it takes).
    @usableFromInline
    mutating func decodeGeneral(value: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer?) -> Result<
        WorkoutEvent, Rejection
    > {
        do {
            try StrictJSONParser.parse(value, into: &tape)
        } catch {
            return .failure(Rejection(.malformedJSON, "\(error.message) at byte \(error.offset)"))
        }
        return tape.nodes.withUnsafeBufferPointer { nodes in
            EventValidator.validate(TapeValue(nodes: nodes, bytes: value, index: 0), key: key)
        }
    }

    /// Convenience for tests and tools: decodes from byte arrays.
    public mutating func decode(value: [UInt8]?, key: [UInt8]?) -> Result<WorkoutEvent, Rejection> {
        func withOptional<R>(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
            guard let bytes else { return body(nil) }
            return bytes.withUnsafeBytes { body($0) }
        }
        return withOptional(value) { valuePointer in
            withOptional(key) { keyPointer in decode(value: valuePointer, key: keyPointer) }
        }
    }
}

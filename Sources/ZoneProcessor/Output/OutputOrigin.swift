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
struct OutputOrigin: @unchecked Sendable {
    private let storage: Storage

    var topic: String { storage.header.topic }
    var partition: Int32 { storage.header.partition }
    /// -1 when no input record produced the output (a session finished by its idle timeout).
    var offset: Int64 { storage.header.offset }
    var key: [UInt8]? { storage.bytes(storage.header.key) }
    var value: [UInt8]? { storage.bytes(storage.header.value) }

    init(topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8]?) {
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
    init(
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

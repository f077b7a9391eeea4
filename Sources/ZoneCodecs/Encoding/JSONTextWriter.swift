import CJansson

#if canImport(Glibc)
    import Glibc
#endif

/// Writes JSON text into a reusable byte buffer: the one place that decides how ZoneStream's
/// outputs spell numbers and strings, used by ``ZoneChangeWriter`` (the frequent output,
/// written directly) and by ``JanssonBuilder/dump(_:)`` (every other output, built as a
/// jansson tree). Numbers: whole numbers below 2^53 as integers (`109`); any other double as
/// the shortest text that reads back as the same double (`81.9`, not jansson's
/// `81.900000000000006`). Strings: jansson's escaping with default flags.
///
/// The text is written into storage that only grows, with a count of the bytes in use: each
/// piece is one bounds check and a memcpy. (Appending to an array cost about 15 ns per piece in
/// `Array.append(contentsOf:)`, most of a zone change's 1.5 µs.) The storage is a plain
/// allocation rather than an array: an array checked that it was uniquely referenced, and
/// retained and released its buffer, for every piece written, which was a fifth of a zone
/// change's encoding (perf).
///
/// A copy of a writer shares its bytes until either grows its storage: read through a copy
/// (as ``ZoneChangeWriter/withBytes(_:)`` lends them), write through one writer only.
struct JSONTextWriter {
    /// Frees the storage when the last writer sharing it is gone.
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    private var storage: Storage
    /// `storage.base`, kept here so a write reads no class property.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes in use are `base[..<count]`; the rest is room.
    private(set) var count = 0

    init(capacity: Int = 1024) {
        storage = Storage(capacity: max(16, capacity))
        base = storage.base
        self.capacity = storage.capacity
    }

    /// The text written (a copy).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The text written (a copy); the writer is empty after it.
    mutating func takeBytes() -> [UInt8] {
        defer { count = 0 }
        return bytes
    }

    /// The text written, without copying it.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(start: base, count: count)) }
    }

    mutating func removeAll() {
        count = 0
    }

    /// Constant text (every literal in the writers is one).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Text written before (by this type), copied as it is.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        write(bytes)
    }

    /// Text written as it is, unescaped (names and units the engine defines).
    mutating func appendUnescaped(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func write(_ source: UnsafeRawBufferPointer) {
        guard let start = source.baseAddress, !source.isEmpty else { return }
        let end = count + source.count
        if end > capacity { grow(toAtLeast: end) }
        UnsafeMutableRawPointer(base + count).copyMemory(from: start, byteCount: source.count)
        count = end
    }

    private mutating func grow(toAtLeast size: Int) {
        var newCapacity = max(16, capacity * 2)
        while newCapacity < size { newCapacity *= 2 }
        let grown = Storage(capacity: newCapacity)
        grown.base.update(from: base, count: count)
        storage = grown
        base = grown.base
        capacity = newCapacity
    }

    mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            append(byte: UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt64(value))
        }
    }

    /// The digits written straight into the storage, last first.
    private mutating func appendDigits(_ value: UInt64) {
        var digits = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        let end = count + digits
        if end > capacity { grow(toAtLeast: end) }
        var remaining = value
        var position = end
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while remaining > 0
        count = end
    }

    /// A count of tenths as a number with one decimal (`105` -> `10.5`, `600` -> `60.0`).
    mutating func appendTenths(_ tenths: Int64) {
        if tenths < 0 { append(byte: UInt8(ascii: "-")) }
        appendDigits(tenths.magnitude / 10)
        append(byte: UInt8(ascii: "."))
        appendDigits(tenths.magnitude % 10)
    }

    /// A count of hundredths with as few decimals as say it, but at least one
    /// (`400` -> `4.0`, `92` -> `0.92`, `90` -> `0.9`).
    mutating func appendHundredths(_ hundredths: Int64) {
        if hundredths < 0 { append(byte: UInt8(ascii: "-")) }
        let magnitude = hundredths.magnitude
        appendDigits(magnitude / 100)
        append(byte: UInt8(ascii: "."))
        let fraction = magnitude % 100
        if fraction % 10 == 0 {
            appendDigits(fraction / 10)
        } else {
            if fraction < 10 { append(byte: UInt8(ascii: "0")) }
            appendDigits(fraction)
        }
    }

    /// A whole number below 2^53 as an integer, anything else as ``appendReal(_:)``.
    mutating func appendNumber(_ value: Double) {
        if abs(value) < 9_007_199_254_740_992, Double(Int64(value)) == value {
            appendInteger(Int64(value))
        } else {
            appendReal(value)
        }
    }

    /// Always a real: the shortest text that reads back as the same double, with `.0` when
    /// it would otherwise look like an integer (`126.0`), and the exponent as jansson writes
    /// it (`1e-5`, `3e20`). Values are finite: the contract refuses every other input.
    mutating func appendReal(_ value: Double) {
        guard value.isFinite else {
            append("null")
            return
        }
        let text = value.description  // Swift's shortest round-trip digits; short texts do not allocate
        var seenExponent = false
        var exponentDigits = 0
        var hasPointOrExponent = false
        for byte in text.utf8 {
            if seenExponent {
                if byte == UInt8(ascii: "+") { continue }
                if byte == UInt8(ascii: "-") {
                    append(byte: byte)
                    continue
                }
                if byte == UInt8(ascii: "0") && exponentDigits == 0 { continue }
                exponentDigits += 1
            }
            if byte == UInt8(ascii: "e") {
                seenExponent = true
                hasPointOrExponent = true
            }
            if byte == UInt8(ascii: ".") { hasPointOrExponent = true }
            append(byte: byte)
        }
        if seenExponent && exponentDigits == 0 { append(byte: UInt8(ascii: "0")) }
        if !hasPointOrExponent { append(".0") }
    }

    mutating func appendString(_ text: String) {
        append(byte: UInt8(ascii: "\""))
        appendEscaped(text)
        append(byte: UInt8(ascii: "\""))
    }

    mutating func appendString(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(byte: UInt8(ascii: "\""))
        if utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            write(UnsafeRawBufferPointer(utf8))
        } else {
            for byte in utf8 { appendEscaped(byte) }
        }
        append(byte: UInt8(ascii: "\""))
    }

    /// jansson's escaping with default flags: quote, backslash and control characters;
    /// UTF-8 passes through; `/` is not escaped.
    mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            // Ids and names rarely need escaping: then the whole text is one memcpy.
            if utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
                write(UnsafeRawBufferPointer(utf8))
            } else {
                for byte in utf8 { appendEscaped(byte) }
            }
        }
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append(#"\""#)
        case UInt8(ascii: "\\"): append(#"\\"#)
        case 0x08: append(#"\b"#)
        case 0x0C: append(#"\f"#)
        case 0x0A: append(#"\n"#)
        case 0x0D: append(#"\r"#)
        case 0x09: append(#"\t"#)
        case 0..<0x20:
            append(#"\u00"#)
            append(byte: Self.hexDigits[Int(byte >> 4)])
            append(byte: Self.hexDigits[Int(byte & 0xF)])
        default: append(byte: byte)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Writes a jansson tree: objects in insertion order (jansson keeps it), every number
    /// by the rules above (integers as they are, reals as ``appendReal(_:)``).
    mutating func appendJansson(_ value: UnsafeMutablePointer<json_t>) {
        switch value.pointee.type {
        case JSON_OBJECT:
            append(byte: UInt8(ascii: "{"))
            var iterator = json_object_iter(value)
            var first = true
            while let current = iterator {
                if !first { append(byte: UInt8(ascii: ",")) }
                first = false
                let key = json_object_iter_key(current)!
                appendString(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: strlen(key)))
                append(byte: UInt8(ascii: ":"))
                if let member = json_object_iter_value(current) { appendJansson(member) } else { append("null") }
                iterator = json_object_iter_next(value, current)
            }
            append(byte: UInt8(ascii: "}"))
        case JSON_ARRAY:
            append(byte: UInt8(ascii: "["))
            for index in 0..<json_array_size(value) {
                if index > 0 { append(byte: UInt8(ascii: ",")) }
                if let element = json_array_get(value, index) { appendJansson(element) } else { append("null") }
            }
            append(byte: UInt8(ascii: "]"))
        case JSON_STRING:
            let start = json_string_value(value).map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
            appendString(UnsafeBufferPointer(start: start, count: json_string_length(value)))
        case JSON_INTEGER: appendInteger(Int64(json_integer_value(value)))
        case JSON_REAL: appendReal(json_real_value(value))
        case JSON_TRUE: append("true")
        case JSON_FALSE: append("false")
        default: append("null")
        }
    }
}

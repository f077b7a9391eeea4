#if canImport(Glibc)
import Glibc
#endif
import CJansson

/// Writes JSON text into a reusable byte buffer: the one place that decides how ZoneStream's
/// outputs spell numbers and strings, used by ``ZoneChangeWriter`` (the frequent output,
/// written directly) and by ``JanssonBuilder/dump(_:)`` (every other output, built as a
/// jansson tree). Numbers: whole numbers below 2^53 as integers (`109`); any other double as
/// the shortest text that reads back as the same double (`81.9`, not jansson's
/// `81.900000000000006`). Strings: jansson's escaping with default flags.
struct JSONTextWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt64(value))
        }
    }

    private mutating func appendDigits(_ value: UInt64) {
        var remaining = value
        var count = 0
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
        withUnsafeMutableBytes(of: &buffer) { raw in
            repeat {
                raw[23 - count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            } while remaining > 0
            bytes.append(contentsOf: raw[(24 - count)...])
        }
    }

    /// A whole number below 2^53 as an integer, anything else as ``appendReal(_:)``.
    mutating func appendNumber(_ value: Double) {
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
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
                    bytes.append(byte)
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
            bytes.append(byte)
        }
        if seenExponent && exponentDigits == 0 { bytes.append(UInt8(ascii: "0")) }
        if !hasPointOrExponent { append(".0") }
    }

    mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(text)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func appendString(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 { appendEscaped(byte) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// jansson's escaping with default flags: quote, backslash and control characters;
    /// UTF-8 passes through; `/` is not escaped.
    mutating func appendEscaped(_ text: String) {
        for byte in text.utf8 { appendEscaped(byte) }
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
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0xF)])
        default: bytes.append(byte)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Writes a jansson tree: objects in insertion order (jansson keeps it), every number
    /// by the rules above (integers as they are, reals as ``appendReal(_:)``).
    mutating func appendJansson(_ value: UnsafeMutablePointer<json_t>) {
        switch value.pointee.type {
        case JSON_OBJECT:
            bytes.append(UInt8(ascii: "{"))
            var iterator = json_object_iter(value)
            var first = true
            while let current = iterator {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                let key = json_object_iter_key(current)!
                appendString(UnsafeBufferPointer(start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: strlen(key)))
                bytes.append(UInt8(ascii: ":"))
                if let member = json_object_iter_value(current) { appendJansson(member) } else { append("null") }
                iterator = json_object_iter_next(value, current)
            }
            bytes.append(UInt8(ascii: "}"))
        case JSON_ARRAY:
            bytes.append(UInt8(ascii: "["))
            for index in 0..<json_array_size(value) {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                if let element = json_array_get(value, index) { appendJansson(element) } else { append("null") }
            }
            bytes.append(UInt8(ascii: "]"))
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

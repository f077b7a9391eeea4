#if canImport(Glibc)
import Glibc
#endif
public import ZoneEngine

/// Writes `zone_change` events straight into a reusable byte buffer: the frequent output,
/// so it allocates nothing once the buffer has grown. Byte for byte the same as
/// ``OutputEncoder/zoneChange(_:session:person:configuration:)`` (jansson), which a
/// differential test checks. Not thread-safe: one per worker.
public struct ZoneChangeWriter {
    /// The last event written; valid until the next call.
    public private(set) var bytes: [UInt8] = []

    public init() {
        bytes.reserveCapacity(1024)
    }

    /// Writes the event for `change` of session `session` and returns its bytes.
    public mutating func write(
        _ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration
    ) -> [UInt8] {
        bytes.removeAll(keepingCapacity: true)
        append(#"{"schema":1,"type":"zone_change","event_id":""#)
        appendEscaped(session)
        append("/")
        append(change.quantity.name)
        append("/")
        appendInteger(change.timestamp)
        append(#"","session":"#)
        appendString(session)
        append(#","person":"#)
        if let person { appendString(person) } else { append("null") }
        append(#","quantity":""#)
        append(change.quantity.name)
        append(#"","ts":"#)
        appendInteger(change.timestamp)
        append(#","previous_zone":"#)
        if let previous = change.previousZone { appendZone(previous, configuration) } else { append("null") }
        append(#","current_zone":"#)
        appendZone(change.currentZone, configuration)
        append(#","configuration":{"source":""#)
        append(configuration.source.rawValue)
        append(#"","unit":""#)
        append(configuration.unit)
        append(#"","boundaries":["#)
        for index in 0..<configuration.boundaries.count {
            if index > 0 { append(",") }
            appendNumber(configuration.boundaries[index])
        }
        append(#"]},"zone_durations":["#)
        for zone in 0..<configuration.zoneCount {
            if zone > 0 { append(",") }
            appendZoneFields(zone, configuration)
            append(#","duration_ms":"#)
            appendInteger(change.durations[zone])
            append("}")
        }
        append("]}")
        return bytes
    }

    private mutating func appendZone(_ zone: Int, _ configuration: ZoneConfiguration) {
        appendZoneFields(zone, configuration)
        append("}")
    }

    private mutating func appendZoneFields(_ zone: Int, _ configuration: ZoneConfiguration) {
        append(#"{"index":"#)
        appendInteger(Int64(zone + 1))
        append(#","min":"#)
        if let lower = configuration.lowerBound(ofZone: zone) { appendNumber(lower) } else { append("null") }
        append(#","max":"#)
        if let upper = configuration.upperBound(ofZone: zone) { appendNumber(upper) } else { append("null") }
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt64(value))
        }
    }

    private mutating func appendDigits(_ value: UInt64) {
        var digits: (UInt64, Int) = (value, 0)
        var buffer: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { raw in
            repeat {
                raw[19 - digits.1] = UInt8(ascii: "0") + UInt8(digits.0 % 10)
                digits.0 /= 10
                digits.1 += 1
            } while digits.0 > 0
            bytes.append(contentsOf: raw[(20 - digits.1)...])
        }
    }

    /// As ``JanssonBuilder/number(_:)`` then jansson's dump: whole numbers as integers,
    /// others as `%.17g` with `.0` added when that looks like an integer.
    private mutating func appendNumber(_ value: Double) {
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
            appendInteger(Int64(value))
            return
        }
        var text = [CChar](repeating: 0, count: 32)
        let length = withVaList([value]) { vsnprintf(&text, text.count, "%.17g", $0) }
        var written = text.prefix(Int(length)).map { UInt8(bitPattern: $0) }
        // jansson drops the exponent's `+` and leading zeros: 3e+20 -> 3e20, 1e-08 -> 1e-8.
        if let exponent = written.firstIndex(of: UInt8(ascii: "e")) {
            var digits = exponent + 1
            if written[digits] == UInt8(ascii: "+") {
                written.remove(at: digits)
            } else if written[digits] == UInt8(ascii: "-") {
                digits += 1
            }
            while digits < written.count - 1 && written[digits] == UInt8(ascii: "0") { written.remove(at: digits) }
        }
        bytes.append(contentsOf: written)
        if !written.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") }) {
            append(".0")
        }
    }

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(text)
        bytes.append(UInt8(ascii: "\""))
    }

    /// jansson's escaping with default flags: quote, backslash and control characters;
    /// UTF-8 passes through; `/` is not escaped.
    private mutating func appendEscaped(_ text: String) {
        for byte in text.utf8 {
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
                let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
    }
}

/// Strings: escapes, `\u` sequences and UTF-8 checked as jansson checks them.
extension StrictJSONParser {
    mutating func parseString(into tape: inout JSONTape) throws(Failure) {
        position += 1  // opening quote
        let start = position
        var escaped = false
        while true {
            guard position < bytes.count else { throw fail("premature end of input in string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw fail("control character in string") }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try skipEscape()
            } else if byte < 0x80 {
                position += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        append(escaped ? .escapedString : .string, start: start, end: position, into: &tape)
        position += 1  // closing quote
    }

    private mutating func skipEscape() throws(Failure) {
        position += 1
        guard position < bytes.count else { throw fail("premature end of input in escape") }
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            position += 1
            let unit = try readHex4()
            if unit == 0 { throw fail("\\u0000 is not allowed") }
            if (0xDC00...0xDFFF).contains(unit) { throw fail("invalid Unicode escape: lone low surrogate") }
            if (0xD800...0xDBFF).contains(unit) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw fail("invalid Unicode escape: lone high surrogate") }
                position += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid Unicode escape: bad low surrogate") }
            }
        default:
            throw fail("invalid escape")
        }
    }

    private mutating func readHex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence strictly: no overlong forms, no surrogates,
    /// nothing above U+10FFFF.
    private mutating func skipUTF8Sequence() throws(Failure) {
        let lead = bytes[position]
        let length: Int
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            highest = 0x9F
        case 0xF0:
            length = 4
            lowest = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            highest = 0x8F
        default: throw fail("invalid UTF-8")
        }
        guard position + length <= bytes.count else { throw fail("invalid UTF-8") }
        let second = bytes[position + 1]
        guard second >= lowest && second <= highest else { throw fail("invalid UTF-8") }
        for offset in 2..<max(2, length) where bytes[position + offset] & 0xC0 != 0x80 {
            throw fail("invalid UTF-8")
        }
        position += length
    }
}

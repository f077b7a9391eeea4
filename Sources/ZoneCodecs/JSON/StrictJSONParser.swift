/// A strict RFC 8259 parser that accepts exactly what jansson 2.14 accepts with flags 0
/// (top level an object or array; UTF-8 checked; no `\u0000`; nesting up to 2048),
/// except that numbers too large for Int64 or a double become `integerOverflow` and
/// `realOverflow` nodes instead of failing, so the contract can call them out of range.
///
/// Writes into a caller-owned ``JSONTape``; allocates nothing once the tape has capacity.
struct StrictJSONParser {
    /// jansson's JSON_PARSER_MAX_DEPTH.
    static let maximumDepth = 2048

    struct Failure: Error {
        let message: String
        let offset: Int
    }

    let bytes: UnsafeRawBufferPointer
    var position = 0
    private var depth = 0

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Parses `bytes` into `tape`; node 0 is the top-level value.
    static func parse(_ bytes: UnsafeRawBufferPointer, into tape: inout JSONTape) throws(Failure) {
        tape.reset()
        var parser = StrictJSONParser(bytes: bytes)
        parser.skipWhitespace()
        guard parser.position < bytes.count else { throw Failure(message: "empty input", offset: 0) }
        let first = bytes[parser.position]
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            throw Failure(message: "'[' or '{' expected", offset: parser.position)
        }
        try parser.parseValue(into: &tape)
        parser.skipWhitespace()
        guard parser.position == bytes.count else {
            throw Failure(message: "end of file expected", offset: parser.position)
        }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    func fail(_ message: String) -> Failure { Failure(message: message, offset: position) }

    private mutating func parseValue(into tape: inout JSONTape) throws(Failure) {
        guard position < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): try parseContainer(object: true, into: &tape)
        case UInt8(ascii: "["): try parseContainer(object: false, into: &tape)
        case UInt8(ascii: "\""): try parseString(into: &tape)
        case UInt8(ascii: "t"): try parseLiteral("true", kind: .true, into: &tape)
        case UInt8(ascii: "f"): try parseLiteral("false", kind: .false, into: &tape)
        case UInt8(ascii: "n"): try parseLiteral("null", kind: .null, into: &tape)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber(into: &tape)
        default: throw fail("invalid token")
        }
    }

    private mutating func parseLiteral(_ word: StaticString, kind: JSONTape.Kind, into tape: inout JSONTape)
        throws(Failure)
    {
        let length = word.utf8CodeUnitCount
        guard position + length <= bytes.count else { throw fail("invalid token") }
        let start = position
        for offset in 0..<length where bytes[position + offset] != word.utf8Start[offset] {
            throw fail("invalid token")
        }
        position += length
        append(kind, start: start, end: position, into: &tape)
        skipPushedBackNul()
    }

    /// jansson reads one byte past a number or a literal and pushes it back; a NUL byte pushed
    /// back is lost (its stream buffer takes NUL as "empty"), so one NUL right after a number or
    /// a literal is skipped. Found by the decoder's fuzz target; kept for equality with jansson.
    private mutating func skipPushedBackNul() {
        if position < bytes.count, bytes[position] == 0 { position += 1 }
    }

    func append(_ kind: JSONTape.Kind, start: Int, end: Int, integer: Int64 = 0, into tape: inout JSONTape) {
        let index = Int32(tape.nodes.count)
        tape.nodes.append(
            JSONTape.Node(
                kind: kind, start: Int32(start), end: Int32(end), next: index + 1, count: 0, integer: integer))
    }

    private mutating func parseContainer(object: Bool, into tape: inout JSONTape) throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw fail("maximum parsing depth reached") }
        let index = tape.nodes.count
        append(object ? .object : .array, start: position, end: position, into: &tape)
        position += 1
        let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        var count: Int32 = 0
        skipWhitespace()
        if position < bytes.count, bytes[position] == close {
            position += 1
        } else {
            while true {
                skipWhitespace()
                if object {
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                        throw fail("string or '}' expected")
                    }
                    try parseString(into: &tape)
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                        throw fail("':' expected")
                    }
                    position += 1
                    skipWhitespace()
                }
                try parseValue(into: &tape)
                count += 1
                skipWhitespace()
                guard position < bytes.count else { throw fail("unexpected end of input") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == close else { throw fail(object ? "'}' expected" : "']' expected") }
                position += 1
                break
            }
        }
        tape.nodes[index].end = Int32(position)
        tape.nodes[index].next = Int32(tape.nodes.count)
        tape.nodes[index].count = count
        depth -= 1
    }

    private mutating func parseNumber(into tape: inout JSONTape) throws(Failure) {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid token") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw fail("invalid token") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        var isReal = false
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isReal = true
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid token") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isReal = true
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid token") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if isReal {
            let value = NumberText.double(bytes, start: start, end: position)
            append(value.isFinite ? .real : .realOverflow, start: start, end: position, into: &tape)
        } else if let integer = NumberText.integer(bytes, start: start, end: position) {
            append(.integer, start: start, end: position, integer: integer, into: &tape)
        } else {
            append(.integerOverflow, start: start, end: position, into: &tape)
        }
        skipPushedBackNul()
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

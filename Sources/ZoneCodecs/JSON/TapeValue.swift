#if canImport(Glibc)
    import Glibc
#endif
/// A value of a document parsed by ``StrictJSONParser``. Valid only while the tape and the
/// message bytes it points into are alive (inside one decode call).
struct TapeValue: JSONValueView {
    let nodes: UnsafeBufferPointer<JSONTape.Node>
    let bytes: UnsafeRawBufferPointer
    let index: Int

    private var node: JSONTape.Node { nodes[index] }

    var kind: JSONValueKind {
        switch node.kind {
        case .null: .null
        case .true, .false: .boolean
        case .integer, .integerOverflow: .integer
        case .real, .realOverflow: .real
        case .string, .escapedString: .string
        case .object: .object
        case .array: .array
        }
    }

    var integerValue: Int64? { node.kind == .integer ? node.integer : nil }

    var isOverflowingInteger: Bool { node.kind == .integerOverflow }

    var doubleValue: Double? {
        switch node.kind {
        case .integer: Double(node.integer)
        case .integerOverflow, .real, .realOverflow:
            NumberText.double(bytes, start: Int(node.start), end: Int(node.end))
        default: nil
        }
    }

    /// The token's bytes; for strings, the raw content between the quotes (escapes undecoded).
    var rawBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)])
    }

    var stringValue: String? {
        switch node.kind {
        case .string: String(decoding: rawBytes, as: UTF8.self)
        case .escapedString: JSONStringUnescaper.unescape(rawBytes)
        default: nil
        }
    }

    var stringByteCount: Int {
        switch node.kind {
        case .string: Int(node.end - node.start)
        case .escapedString: JSONStringUnescaper.unescape(rawBytes).utf8.count
        default: 0
        }
    }

    func stringEquals(_ text: StaticString) -> Bool {
        stringEquals(bytes: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func stringEquals(bytes other: UnsafeRawBufferPointer) -> Bool {
        switch node.kind {
        case .string:
            // memcmp: `elementsEqual` went through the sequences' iterators byte by byte, a
            // sixth of the decoder's instructions (callgrind).
            guard rawBytes.count == other.count else { return false }
            guard let base = rawBytes.baseAddress, let otherBase = other.baseAddress else { return true }
            return memcmp(base, otherBase, other.count) == 0
        case .escapedString:
            let decoded = JSONStringUnescaper.unescape(rawBytes).utf8
            return decoded.count == other.count && decoded.elementsEqual(other)
        default:
            return false
        }
    }

    func member(_ key: StaticString) -> TapeValue? {
        guard node.kind == .object else { return nil }
        let keyBytes = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        var found: TapeValue?
        var cursor = index + 1
        let end = Int(node.next)
        while cursor < end {
            let keyValue = TapeValue(nodes: nodes, bytes: bytes, index: cursor)
            let valueIndex = cursor + 1
            if keyValue.stringEquals(bytes: keyBytes) {
                found = TapeValue(nodes: nodes, bytes: bytes, index: valueIndex)
            }
            cursor = Int(nodes[valueIndex].next)
        }
        return found
    }

    var members: [(key: String, value: TapeValue)] {
        guard node.kind == .object else { return [] }
        var result: [(key: String, value: TapeValue)] = []
        var cursor = index + 1
        while cursor < Int(node.next) {
            let key = TapeValue(nodes: nodes, bytes: bytes, index: cursor).stringValue ?? ""
            // Duplicate keys, as in jansson: the last value wins, in the first one's place
            // (found by the fuzz target: the order decides which defect is reported first).
            let value = TapeValue(nodes: nodes, bytes: bytes, index: cursor + 1)
            if let existing = result.firstIndex(where: { $0.key == key }) {
                result[existing].value = value
            } else {
                result.append((key, value))
            }
            cursor = Int(nodes[cursor + 1].next)
        }
        return result
    }

    func forEachMember(_ body: (UnsafeRawBufferPointer, TapeValue) -> Void) {
        guard node.kind == .object else { return }
        var cursor = index + 1
        while cursor < Int(node.next) {
            let key = TapeValue(nodes: nodes, bytes: bytes, index: cursor)
            let value = TapeValue(nodes: nodes, bytes: bytes, index: cursor + 1)
            if nodes[cursor].kind == .string {
                body(key.rawBytes, value)
            } else {
                var decoded = key.stringValue ?? ""
                decoded.withUTF8 { body(UnsafeRawBufferPointer($0), value) }
            }
            cursor = Int(nodes[cursor + 1].next)
        }
    }

    var elementCount: Int { node.kind == .array ? Int(node.count) : 0 }

    func forEachElement(_ body: (TapeValue) -> Bool) {
        guard node.kind == .array else { return }
        var cursor = index + 1
        while cursor < Int(node.next) {
            if !body(TapeValue(nodes: nodes, bytes: bytes, index: cursor)) { return }
            cursor = Int(nodes[cursor].next)
        }
    }
}

/// Decodes the escapes of a JSON string already validated by ``StrictJSONParser``.
enum JSONStringUnescaper {
    static func unescape(_ raw: UnsafeRawBufferPointer) -> String {
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var index = 0
        func flush() {
            if !utf8.isEmpty {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll()
            }
        }
        func hex4(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for offset in 0..<4 {
                let byte = raw[at + offset]
                let digit: UInt32 =
                    switch byte {
                    case 0x30...0x39: UInt32(byte - 0x30)
                    case 0x61...0x66: UInt32(byte - 0x61 + 10)
                    default: UInt32(byte - 0x41 + 10)
                    }
                value = value << 4 | digit
            }
            return value
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var code = hex4(index)
                index += 4
                if (0xD800...0xDBFF).contains(code) {
                    let low = hex4(index + 2)
                    index += 6
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                flush()
                if let scalar = Unicode.Scalar(code) { scalars.append(scalar) }
            default: utf8.append(escape)  // \" \\ \/
            }
        }
        flush()
        return String(scalars)
    }
}

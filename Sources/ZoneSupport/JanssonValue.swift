import CJansson
import ZoneCodecs

/// A value of a jansson DOM: the reference the production parser is proven equal to.
struct JanssonValue: JSONValueView {
    let pointer: UnsafeMutablePointer<json_t>

    var kind: JSONValueKind {
        switch pointer.pointee.type {
        case JSON_OBJECT: .object
        case JSON_ARRAY: .array
        case JSON_STRING: .string
        case JSON_INTEGER: .integer
        case JSON_REAL: .real
        case JSON_TRUE, JSON_FALSE: .boolean
        default: .null
        }
    }

    var integerValue: Int64? { kind == .integer ? Int64(json_integer_value(pointer)) : nil }

    /// jansson refuses such documents outright, so a jansson value never overflows.
    var isOverflowingInteger: Bool { false }

    var doubleValue: Double? {
        switch kind {
        case .integer: Double(json_integer_value(pointer))
        case .real: json_real_value(pointer)
        default: nil
        }
    }

    private var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: json_string_value(pointer), count: json_string_length(pointer))
    }

    var stringValue: String? { kind == .string ? String(decoding: bytes, as: UTF8.self) : nil }

    var stringByteCount: Int { kind == .string ? json_string_length(pointer) : 0 }

    func stringEquals(_ text: StaticString) -> Bool {
        stringEquals(bytes: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func stringEquals(bytes other: UnsafeRawBufferPointer) -> Bool {
        kind == .string && bytes.count == other.count && bytes.elementsEqual(other)
    }

    func member(_ key: StaticString) -> JanssonValue? {
        guard kind == .object else { return nil }
        let found = key.withUTF8Buffer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_object_getn(pointer, $0.baseAddress, $0.count) }
        }
        return found.map(JanssonValue.init)
    }

    var members: [(key: String, value: JanssonValue)] {
        guard kind == .object else { return [] }
        var result: [(key: String, value: JanssonValue)] = []
        var iterator = json_object_iter(pointer)
        while let current = iterator {
            let keyPointer = json_object_iter_key(current)
            let length = json_object_iter_key_len(current)
            let key = String(decoding: UnsafeRawBufferPointer(start: keyPointer, count: length), as: UTF8.self)
            if let value = json_object_iter_value(current) { result.append((key, JanssonValue(pointer: value))) }
            iterator = json_object_iter_next(pointer, current)
        }
        return result
    }

    func forEachMember(_ body: (UnsafeRawBufferPointer, JanssonValue) -> Void) {
        guard kind == .object else { return }
        var iterator = json_object_iter(pointer)
        while let current = iterator {
            let key = UnsafeRawBufferPointer(
                start: json_object_iter_key(current), count: json_object_iter_key_len(current))
            if let value = json_object_iter_value(current) { body(key, JanssonValue(pointer: value)) }
            iterator = json_object_iter_next(pointer, current)
        }
    }

    var elementCount: Int { kind == .array ? json_array_size(pointer) : 0 }

    func forEachElement(_ body: (JanssonValue) -> Bool) {
        for index in 0..<elementCount {
            guard let element = json_array_get(pointer, index) else { return }
            if !body(JanssonValue(pointer: element)) { return }
        }
    }
}

/// The one owner of a parsed jansson document; releases it when done.
final class JanssonDocument {
    let root: UnsafeMutablePointer<json_t>

    /// Parses with flags 0: top level an object or array, UTF-8 checked, no `\u0000`.
    /// Returns the jansson error text on failure.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<JanssonDocument, JanssonParseError> {
        var error = json_error_t()
        let parsed = bytes.withMemoryRebound(to: CChar.self) { json_loadb($0.baseAddress, $0.count, 0, &error) }
        guard let parsed else {
            let text = withUnsafeBytes(of: error.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .failure(
                JanssonParseError(message: text, position: Int(error.position), code: json_error_code(&error)))
        }
        return .success(JanssonDocument(root: parsed))
    }

    private init(root: UnsafeMutablePointer<json_t>) { self.root = root }

    deinit { json_decref(root) }
}

package struct JanssonParseError: Error {
    package let message: String
    package let position: Int
    let code: json_error_code

    /// jansson refused a number too large for json_int_t or a double; the contract
    /// calls those values out of range, which is where the strict parser differs on purpose.
    package var isNumericOverflow: Bool { code == json_error_numeric_overflow }
}

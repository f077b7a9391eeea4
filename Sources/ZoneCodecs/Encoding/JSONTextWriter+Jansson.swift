import CJansson

#if canImport(Glibc)
    import Glibc
#endif

extension JSONTextWriter {
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

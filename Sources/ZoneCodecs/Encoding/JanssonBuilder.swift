import CJansson

/// Builds jansson values; the one place that calls jansson's constructors.
/// Every `json_t` made here is owned by the object it is set into (`json_object_set_new`),
/// and the root by ``JanssonBuilder/dump(_:)``, which releases it.
enum JanssonBuilder {
    typealias Value = UnsafeMutablePointer<json_t>

    static func object(_ members: KeyValuePairs<String, Value?>) -> Value {
        let object = json_object()!
        for (key, value) in members { json_object_set_new(object, key, value ?? json_null()) }
        return object
    }

    static func array(_ elements: [Value]) -> Value {
        let array = json_array()!
        for element in elements { json_array_append_new(array, element) }
        return array
    }

    static func string(_ text: String) -> Value {
        text.utf8CString.withUnsafeBufferPointer { json_stringn($0.baseAddress, $0.count - 1) } ?? json_null()
    }

    static func optionalString(_ text: String?) -> Value { text.map(string) ?? json_null() }

    static func integer(_ value: Int64) -> Value { json_integer(json_int_t(value)) }

    static func integer(_ value: Int) -> Value { json_integer(json_int_t(value)) }

    /// A whole number prints as an integer (`109`), anything else as a real.
    static func number(_ value: Double) -> Value {
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { return integer(Int64(value)) }
        return json_real(value)
    }

    /// Always a real (`126.0`), for averages.
    static func real(_ value: Double) -> Value { json_real(value) }

    /// Serializes compactly, keys in insertion order, numbers by ``JSONTextWriter``'s rules
    /// (shortest round-trip reals), and releases `root`.
    static func dump(_ root: Value) -> [UInt8] {
        defer { json_decref(root) }
        var writer = JSONTextWriter(capacity: 512)
        writer.appendJansson(root)
        return writer.takeBytes()
    }
}

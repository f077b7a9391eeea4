#if canImport(Glibc)
import Glibc
#endif
import ZoneEngine

/// The fast path of ``WorkoutEventDecoder`` for the commonest record, a `sample`, in the form
/// gateways and the load generator write it: one flat object without whitespace; keys among
/// the seven a sample has (`type`, `session`, `ts`, `quantity`, `value`, `unit`, `person`),
/// each once, in any order; strings of printable ASCII without escapes; `ts` an integer of at
/// most 15 digits; `value` a number of at most 15 digits without exponent.
///
/// On that subset of JSON it returns exactly what the general path (``StrictJSONParser`` and
/// ``EventValidator``) returns, through the same number conversions (``NumberText``). Anything
/// outside the subset, and every record the general path would reject, gives nil: the general
/// path then decodes it and says why. So the fast path decides nothing on its own; it only
/// skips the tape and the field table for records that are plainly well formed.
enum SampleFastPath {
    private static let quote = UInt8(ascii: "\"")

    static func decode(_ bytes: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer?) -> WorkoutEvent? {
        let count = bytes.count
        guard count >= 2, bytes[0] == UInt8(ascii: "{"), bytes[count - 1] == UInt8(ascii: "}") else { return nil }
        var spans = Spans()
        var position = 1
        while true {
            guard position < count, bytes[position] == quote,
                let keyEnd = stringEnd(bytes, from: position + 1),
                keyEnd + 1 < count, bytes[keyEnd + 1] == UInt8(ascii: ":"),
                let field = EventField(key: UnsafeRawBufferPointer(rebasing: bytes[(position + 1)..<keyEnd]))
            else { return nil }
            position = keyEnd + 2
            let start = position
            switch field {
            case .type, .session, .quantity, .unit, .person:
                guard position < count, bytes[position] == quote, let end = stringEnd(bytes, from: position + 1) else { return nil }
                position = end + 1
                guard spans.set(field, start + 1, end) else { return nil }
            case .ts:
                guard let end = numberEnd(bytes, from: position, fraction: false), bytes[start] != UInt8(ascii: "-") else { return nil }
                position = end
                guard spans.set(field, start, end) else { return nil }
            case .value:
                guard let end = numberEnd(bytes, from: position, fraction: true) else { return nil }
                position = end
                guard spans.set(field, start, end) else { return nil }
                spans.valueIsInteger = !bytes[start..<end].contains(UInt8(ascii: "."))
            case .intervalMs, .values, .activity, .zones:
                return nil
            }
            // A number must be followed by a separator: `1e5`, `1.`, `01` end here.
            guard position < count else { return nil }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") && position == count - 1 {
                break
            } else {
                return nil
            }
        }
        return event(bytes, spans, key: key)
    }

    /// The event of a record in the subset, or nil when the general path has to judge it.
    private static func event(_ bytes: UnsafeRawBufferPointer, _ spans: Spans, key: UnsafeRawBufferPointer?) -> WorkoutEvent? {
        guard let type = spans.type, let session = spans.session, let tsSpan = spans.ts, let quantitySpan = spans.quantity,
            let valueSpan = spans.value
        else { return nil }
        func view(_ span: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[span]) }
        guard equals(view(type), "sample") else { return nil }
        guard let quantity = EventValidator.quantity(matching: { equals(view(quantitySpan), $0) }) else { return nil }
        var factor = 1.0
        if let unit = spans.unit {
            guard let unitFactor = EventValidator.unitFactor(for: quantity, matching: { equals(view(unit), $0) }) else {
                return nil
            }
            factor = unitFactor
        }
        guard (1...EventValidator.maximumSessionBytes).contains(session.count) else { return nil }
        if let key, !equals(view(session), key) { return nil }
        if let person = spans.person, person.count > EventValidator.maximumPersonBytes { return nil }
        // At most 15 digits and not negative: within 0...2^53.
        guard let timestamp = NumberText.integer(bytes, start: tsSpan.lowerBound, end: tsSpan.upperBound) else { return nil }
        let number: Double
        if spans.valueIsInteger {
            guard let integer = NumberText.integer(bytes, start: valueSpan.lowerBound, end: valueSpan.upperBound) else { return nil }
            number = Double(integer)
        } else {
            number = NumberText.double(bytes, start: valueSpan.lowerBound, end: valueSpan.upperBound)
        }
        let value = number * factor
        guard value.isFinite, quantity.isValidReading(value) else { return nil }
        let person = spans.person.map { String(decoding: view($0), as: UTF8.self) }
        return WorkoutEvent(
            session: String(decoding: view(session), as: UTF8.self), timestamp: timestamp,
            body: .sample(quantity, value: value, person: person))
    }

    /// The index of the closing quote of a string starting at `start` (just past its opening
    /// quote), when every byte before it is printable ASCII other than a backslash.
    private static func stringEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote { return index }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// The end of a JSON number at `start`: `-`? (`0` | [1-9][0-9]*), with `fraction` also
    /// (`.` [0-9]+)?; at most 15 digits in all, so it converts exactly and fits any range
    /// checked here. nil when the bytes are not such a number.
    private static func numberEnd(_ bytes: UnsafeRawBufferPointer, from start: Int, fraction: Bool) -> Int? {
        var index = start
        if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        var digits = index - integerStart
        guard digits >= 1, digits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        if fraction && index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart else { return nil }
            digits += index - fractionStart
        }
        return digits <= 15 ? index : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func equals(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        equals(bytes, UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func equals(_ bytes: UnsafeRawBufferPointer, _ other: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == other.count else { return false }
        guard let left = bytes.baseAddress, let right = other.baseAddress else { return bytes.count == 0 }
        return memcmp(left, right, bytes.count) == 0
    }

    /// Where each field's token lies (strings: between the quotes).
    private struct Spans {
        var type: Range<Int>?
        var session: Range<Int>?
        var ts: Range<Int>?
        var quantity: Range<Int>?
        var value: Range<Int>?
        var unit: Range<Int>?
        var person: Range<Int>?
        var valueIsInteger = true

        /// Records a field's span; false for a field seen before (jansson's last-wins rule
        /// is the general path's to apply).
        mutating func set(_ field: EventField, _ start: Int, _ end: Int) -> Bool {
            let span = start..<end
            switch field {
            case .type: return Self.store(&type, span)
            case .session: return Self.store(&session, span)
            case .ts: return Self.store(&ts, span)
            case .quantity: return Self.store(&quantity, span)
            case .value: return Self.store(&value, span)
            case .unit: return Self.store(&unit, span)
            case .person: return Self.store(&person, span)
            case .intervalMs, .values, .activity, .zones: return false
            }
        }

        private static func store(_ slot: inout Range<Int>?, _ span: Range<Int>) -> Bool {
            guard slot == nil else { return false }
            slot = span
            return true
        }
    }
}

public import ZoneEngine

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
///
/// One pass over ``SampleText``, words instead of bytes where the bytes are known: a key is
/// matched with its closing quote and colon (`"type":`), `"sample"` and the quantity names with
/// their quotes, each in one or two word compares; strings are checked and digits converted
/// eight bytes at a time. (213 -> 206 ns on one sample message; the compiler had
/// already turned most of the `memcmp`s of the byte version into word compares.)
@usableFromInline
enum SampleFastPath {
    private static let quote = UInt8(ascii: "\"")

    /// The sample, or nil for the general path; session ids seen before come from `ids`.
    @usableFromInline
    static func decode(_ bytes: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer?, ids: inout SessionIdCache)
        -> WorkoutEvent?
    {
        guard let text = SampleText(bytes) else { return nil }
        let count = text.count
        guard count >= 2, text[0] == UInt8(ascii: "{"), text[count - 1] == UInt8(ascii: "}") else { return nil }
        var fields = Fields()
        var position = 1
        while true {
            // `"name":`, then the value.
            guard position < count, text[position] == quote, let (field, keyLength) = field(text, at: position + 1),
                fields.markSeen(field)
            else { return nil }
            position += 1 + keyLength
            guard let end = readValue(of: field, text, at: position, into: &fields) else { return nil }
            position = end
            // A number must be followed by a separator: `1e5`, `1.`, `01` end here.
            guard position < count else { return nil }
            if text[position] == UInt8(ascii: ",") {
                position += 1
            } else if text[position] == UInt8(ascii: "}") && position == count - 1 {
                break
            } else {
                return nil
            }
        }
        return event(text, fields, key: key, ids: &ids)
    }

    /// Reads the value of `field` at `position` into `fields`: the position after it, or nil
    /// when the value is not in the subset.
    @inline(__always)
    private static func readValue(of field: EventField, _ text: SampleText, at position: Int, into fields: inout Fields)
        -> Int?
    {
        let count = text.count
        switch field {
        case .type:
            // Only samples take this path; every other type is the general path's.
            guard text.matches("\"sample\"", at: position) else { return nil }
            return position + 8
        case .quantity:
            var nameLength = 0
            guard position < count, text[position] == quote,
                let quantity = EventValidator.quantity(matching: { name in
                    nameLength = name.utf8CodeUnitCount
                    let end = position + 1 + nameLength
                    return end < count && text[end] == quote && text.matches(name, at: position + 1)
                })
            else { return nil }
            fields.quantity = quantity
            return position + nameLength + 2
        case .session, .unit, .person:
            guard position < count, text[position] == quote, let end = stringEnd(text, from: position + 1) else {
                return nil
            }
            let span = (position + 1)..<end
            if field == .session {
                fields.session = span
            } else if field == .unit {
                fields.unit = span
            } else {
                fields.person = span
            }
            return end + 1
        case .ts:
            // Not negative, at most 15 digits: within 0...2^53.
            guard let (end, timestamp) = integer(text, from: position), end - position <= 15 else { return nil }
            fields.timestamp = Int64(timestamp)
            return end
        case .value:
            guard let (end, value) = number(text, from: position) else { return nil }
            fields.value = value
            return end
        case .intervalMs, .values, .activity, .zones, .sessionClass, .plan:
            return nil
        }
    }

    /// The event of a record in the subset, or nil when the general path has to judge it.
    @inline(__always)
    private static func event(
        _ text: SampleText, _ fields: Fields, key: UnsafeRawBufferPointer?,
        ids: inout SessionIdCache
    ) -> WorkoutEvent? {
        guard fields.has(.type), let session = fields.session, let timestamp = fields.timestamp,
            let quantity = fields.quantity, let number = fields.value
        else { return nil }
        var factor = 1.0
        if let unit = fields.unit {
            guard
                let unitFactor = EventValidator.unitFactor(
                    for: quantity,
                    matching: { literal in
                        unit.count == literal.utf8CodeUnitCount && text.matches(literal, at: unit.lowerBound)
                    })
            else {
                return nil
            }
            factor = unitFactor
        }
        guard (1...EventValidator.maximumSessionBytes).contains(session.count) else { return nil }
        if let key, !text.equals(session, key) { return nil }
        if let person = fields.person, person.count > EventValidator.maximumPersonBytes { return nil }
        let value = number * factor
        guard value.isFinite, quantity.isValidReading(value) else { return nil }
        let person = fields.person.map { String(decoding: text.view($0), as: UTF8.self) }
        return WorkoutEvent(
            session: ids.id(text, session), timestamp: timestamp,
            body: .sample(quantity, value: value, person: person))
    }

    /// The sample field whose key starts at `index` (just past its opening quote), and the
    /// length of the key's name with its closing quote and the colon; nil for any other key.
    @inline(__always)
    private static func field(_ text: SampleText, at index: Int) -> (EventField, Int)? {
        guard index < text.count else { return nil }
        switch text[index] {
        case UInt8(ascii: "t"):
            if text.matches("type\":", at: index) { return (.type, 6) }
            return text.matches("ts\":", at: index) ? (.ts, 4) : nil
        case UInt8(ascii: "s"): return text.matches("session\":", at: index) ? (.session, 9) : nil
        case UInt8(ascii: "q"): return text.matches("quantity\":", at: index) ? (.quantity, 10) : nil
        case UInt8(ascii: "v"): return text.matches("value\":", at: index) ? (.value, 7) : nil
        case UInt8(ascii: "u"): return text.matches("unit\":", at: index) ? (.unit, 6) : nil
        case UInt8(ascii: "p"): return text.matches("person\":", at: index) ? (.person, 8) : nil
        default: return nil
        }
    }

    /// The index of the closing quote of a string starting at `start` (just past its opening
    /// quote), when every byte before it is printable ASCII other than a backslash. Eight
    /// bytes at a time while none of them is special, then byte by byte.
    @inline(__always)
    private static func stringEnd(_ text: SampleText, from start: Int) -> Int? {
        var index = start
        while index + 8 <= text.count && !SampleText.hasNonPlainByte(text.word(at: index)) { index += 8 }
        while index < text.count {
            let byte = text[index]
            if byte == quote { return index }
            // 0x20...0x7E but not `\`: one unsigned compare for the range.
            guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// What the pass found: each field at most once (a repeated key is jansson's last-wins
    /// rule, the general path's to apply), strings as spans between their quotes.
    private struct Fields {
        private var seen: UInt16 = 0
        var session: Range<Int>?
        var unit: Range<Int>?
        var person: Range<Int>?
        var timestamp: Int64?
        var quantity: Quantity?
        var value: Double?

        /// Notes the field; false when it was seen before.
        mutating func markSeen(_ field: EventField) -> Bool {
            let bit: UInt16 = 1 << UInt16(field.rawValue)
            guard seen & bit == 0 else { return false }
            seen |= bit
            return true
        }

        func has(_ field: EventField) -> Bool { seen & (1 << UInt16(field.rawValue)) != 0 }
    }
}

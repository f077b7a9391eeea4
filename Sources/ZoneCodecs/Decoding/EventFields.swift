#if canImport(Glibc)
    import Glibc
#endif

/// The fields of a `workout-events` object the contract names.
enum EventField: Int, CaseIterable {
    case type, session, ts, quantity, value, unit, person, intervalMs, values, activity, zones, sessionClass, plan

    var name: String {
        switch self {
        case .type: "type"
        case .session: "session"
        case .ts: "ts"
        case .quantity: "quantity"
        case .value: "value"
        case .unit: "unit"
        case .person: "person"
        case .intervalMs: "interval_ms"
        case .values: "values"
        case .activity: "activity"
        case .zones: "zones"
        case .sessionClass: "class"
        case .plan: "plan"
        }
    }

    /// The field a key names, matched on length first, then bytes; nil for unknown keys.
    init?(key: UnsafeRawBufferPointer) {
        func matches(_ text: StaticString) -> Bool {
            guard key.count == text.utf8CodeUnitCount, let base = key.baseAddress else { return false }
            return memcmp(base, text.utf8Start, key.count) == 0
        }
        switch key.count {
        case 2 where matches("ts"): self = .ts
        case 4 where matches("type"): self = .type
        case 4 where matches("unit"): self = .unit
        case 4 where matches("plan"): self = .plan
        case 5 where matches("value"): self = .value
        case 5 where matches("zones"): self = .zones
        case 5 where matches("class"): self = .sessionClass
        case 6 where matches("person"): self = .person
        case 6 where matches("values"): self = .values
        case 7 where matches("session"): self = .session
        case 8 where matches("quantity"): self = .quantity
        case 8 where matches("activity"): self = .activity
        case 11 where matches("interval_ms"): self = .intervalMs
        default: return nil
        }
    }
}

/// An event object's named fields, found in one pass over its keys (duplicate keys: the
/// last wins, as in jansson), so each later lookup is an array read instead of a key scan.
struct EventFields<Value: JSONValueView> {
    private var slots = InlineArray<13, Value?>(repeating: nil)

    init(_ root: Value) {
        root.forEachMember { key, value in
            if let field = EventField(key: key) { slots[field.rawValue] = value }
        }
    }

    /// The field's value, including an explicit null.
    subscript(field: EventField) -> Value? { slots[field.rawValue] }

    /// The field's value when present and not null (a null optional field counts as absent).
    func present(_ field: EventField) -> Value? {
        guard let value = slots[field.rawValue], value.kind != .null else { return nil }
        return value
    }
}

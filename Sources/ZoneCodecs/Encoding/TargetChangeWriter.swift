public import ZoneEngine

/// Writes `target_change` events (contract, section 4) into a reusable byte buffer: the one
/// writer of that format. Not thread-safe: one per worker.
public struct TargetChangeWriter {
    private var text = JSONTextWriter(capacity: 512)

    public init() {}

    /// The last event written, without copying it; the bytes are valid inside `body` only.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try text.withBytes(body)
    }

    /// Writes the event for `change` and returns a copy of its bytes.
    public mutating func write(_ change: TargetChange, session: String, person: String?, sessionClass: String?)
        -> [UInt8]
    {
        encode(change, session: session, person: person, sessionClass: sessionClass)
        return text.bytes
    }

    /// Writes the event for `change` into the writer's buffer (read it with ``withBytes(_:)``).
    public mutating func encode(_ change: TargetChange, session: String, person: String?, sessionClass: String?) {
        let step = change.state.step
        text.removeAll()
        text.append(#"{"schema":1,"type":"target_change","event_id":""#)
        text.appendEscaped(session)
        text.append("/")
        text.appendUnescaped(change.quantity.name)
        text.append("/")
        text.appendInteger(change.timestamp)
        text.append(#"/target","session":"#)
        text.appendString(session)
        text.append(#","person":"#)
        if let person { text.appendString(person) } else { text.append("null") }
        text.append(#","class":"#)
        if let sessionClass { text.appendString(sessionClass) } else { text.append("null") }
        text.append(#","quantity":""#)
        text.appendUnescaped(change.quantity.name)
        text.append(#"","ts":"#)
        text.appendInteger(change.timestamp)
        text.append(#","step":{"#)
        text.appendStepFields(index: step, purpose: change.purpose, start: change.stepStart, end: change.stepEnd)
        text.append(#","target":"#)
        if let target = change.target {
            text.appendTarget(target)
        } else {
            text.append("null")
        }
        text.append(#"},"status":""#)
        text.appendUnescaped(change.state.status.name)
        text.append(#"","previous":"#)
        if let previous = change.previous {
            text.append(#"{"step":"#)
            text.appendInteger(Int64(previous.step + 1))
            text.append(#","status":""#)
            text.appendUnescaped(previous.status.name)
            text.append(#""}"#)
        } else {
            text.append("null")
        }
        text.append(#","value":"#)
        text.appendNumber(change.value)
        text.append("}")
    }
}

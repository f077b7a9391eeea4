public import ZoneEngine

/// Writes `zone_change` events straight into a reusable byte buffer: the frequent output,
/// so it allocates nothing once the buffer has grown. Byte for byte the same as
/// ``OutputEncoder/zoneChange(_:session:person:configuration:)`` (jansson), which a
/// differential test checks. Not thread-safe: one per worker.
public struct ZoneChangeWriter {
    private var text = JSONTextWriter(capacity: 1024)
    private var configurations = ConfigurationTextCache()

    /// The last event written (a copy).
    public var bytes: [UInt8] { text.bytes }

    /// The last event written, without copying it; the bytes are valid inside `body` only.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try text.withBytes(body)
    }

    public init() {}

    /// Writes the event for `change` of session `session` and returns a copy of its bytes.
    public mutating func write(
        _ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration
    ) -> [UInt8] {
        encode(change, session: session, person: person, configuration: configuration)
        return text.bytes
    }

    /// Writes the event for `change` of session `session` into the writer's buffer (read it
    /// with ``withBytes(_:)``): the per-event path, which allocates nothing once the buffer
    /// has grown and the configuration's text is written (once per configuration, see
    /// ``ConfigurationTextCache``).
    public mutating func encode(
        _ change: ZoneChange, session: String, person: String?, configuration: ZoneConfiguration
    ) {
        text.removeAll()
        text.append(#"{"schema":1,"type":"zone_change","event_id":""#)
        text.appendEscaped(session)
        text.append("/")
        text.appendUnescaped(change.quantity.name)
        text.append("/")
        text.appendInteger(change.timestamp)
        text.append(#"","session":"#)
        text.appendString(session)
        text.append(#","person":"#)
        if let person { text.appendString(person) } else { text.append("null") }
        text.append(#","quantity":""#)
        text.appendUnescaped(change.quantity.name)
        text.append(#"","ts":"#)
        text.appendInteger(change.timestamp)
        let written = configurations.entry(for: configuration)
        // The entry's text is read through pointers: it must live until the last copy.
        withExtendedLifetime(written) {
            text.append(#","previous_zone":"#)
            if let previous = change.previousZone { appendZone(previous, written) } else { text.append("null") }
            text.append(#","current_zone":"#)
            appendZone(change.currentZone, written)
            text.append(#","configuration":{"#)
            text.append(written.description)
            text.append(#"},"zone_durations":["#)
            for zone in 0..<configuration.zoneCount {
                if zone > 0 { text.append(",") }
                text.append(written.zoneFields(zone))
                text.append(#","duration_ms":"#)
                text.appendInteger(change.durations[zone])
                text.append("}")
            }
            text.append("]}")
        }
    }

    private mutating func appendZone(_ zone: Int, _ written: ConfigurationTextCache.Entry) {
        text.append(written.zoneFields(zone))
        text.append("}")
    }
}

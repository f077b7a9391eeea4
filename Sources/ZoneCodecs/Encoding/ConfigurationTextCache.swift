import ZoneEngine

/// The text of the parts of a zone-change event that depend only on its zone configuration,
/// written once per configuration and copied into every event after that.
///
/// An event holds each boundary three times (the list, a zone's `max`, the next zone's `min`)
/// and the current and previous zones again: up to 24 doubles in their shortest round-trip form,
/// most of the writer's time per event (session 10). A live session keeps its configuration,
/// and a gym has few (system zones by age, a club's own), so a small table by hash hits.
struct ConfigurationTextCache {
    /// One configuration's text.
    struct Entry {
        let configuration: ZoneConfiguration
        /// `"source":"…","unit":"…","boundaries":[…]`
        let description: [UInt8]
        /// Per zone: `{"index":N,"min":X,"max":Y` (no closing brace: the durations list adds a field).
        let zoneFields: [[UInt8]]
    }

    /// A power of two; a configuration whose slot holds another is written again and replaces
    /// it (the hash leaves the source out: the equality check has it).
    private static let slotCount = 64
    private var slots = [Entry?](repeating: nil, count: slotCount)

    /// The text of `configuration`, written now if its slot holds another.
    mutating func entry(for configuration: ZoneConfiguration) -> Entry {
        let slot = Self.slot(of: configuration)
        if let entry = slots[slot], entry.configuration == configuration { return entry }
        let entry = Self.write(configuration)
        slots[slot] = entry
        return entry
    }

    private static func slot(of configuration: ZoneConfiguration) -> Int {
        var hash = UInt64(configuration.boundaries.count) &* 0x9E37_79B9_7F4A_7C15
        for index in 0..<configuration.boundaries.count {
            hash = (hash ^ configuration.boundaries[index].bitPattern) &* 0x0000_0100_0000_01B3
        }
        hash ^= hash >> 29
        return Int(truncatingIfNeeded: hash) & (slotCount - 1)
    }

    private static func write(_ configuration: ZoneConfiguration) -> Entry {
        var text = JSONTextWriter(capacity: 256)
        text.append(#""source":""#)
        text.appendUnescaped(configuration.source.rawValue)
        text.append(#"","unit":""#)
        text.appendUnescaped(configuration.unit)
        text.append(#"","boundaries":["#)
        for index in 0..<configuration.boundaries.count {
            if index > 0 { text.append(",") }
            text.appendNumber(configuration.boundaries[index])
        }
        text.append("]")
        let description = text.takeBytes()
        let zoneFields = (0..<configuration.zoneCount).map { zone -> [UInt8] in
            text.removeAll()
            text.append(#"{"index":"#)
            text.appendInteger(Int64(zone + 1))
            text.append(#","min":"#)
            if let lower = configuration.lowerBound(ofZone: zone) { text.appendNumber(lower) } else { text.append("null") }
            text.append(#","max":"#)
            if let upper = configuration.upperBound(ofZone: zone) { text.appendNumber(upper) } else { text.append("null") }
            return text.bytes
        }
        return Entry(configuration: configuration, description: description, zoneFields: zoneFields)
    }
}

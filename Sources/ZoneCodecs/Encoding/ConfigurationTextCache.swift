import ZoneEngine

/// The text of the parts of a zone-change event that depend only on its zone configuration,
/// written once per configuration and copied into every event after that.
///
/// An event holds each boundary three times (the list, a zone's `max`, the next zone's `min`)
/// and the current and previous zones again: up to 24 doubles in their shortest round-trip form,
/// most of the writer's time per event. A live session keeps its configuration,
/// but a gym's members each have their own (system zones from each member's age or maximum
/// heart rate, power zones from each one's FTP): a class of 200 has about 350 live at once.
/// With 64 slots the gym traffic missed on about half its events, and writing an entry again
/// was a tenth of a worker's time (perf); 4,096 slots of references (32 KB per
/// worker, entries written only for configurations seen) keep the misses to collisions.
struct ConfigurationTextCache {
    /// One configuration's text; a reference, so a slot costs a pointer until it is used.
    /// The text is one allocation read through pointers: an array per piece was retained and
    /// released for every piece an event copied (perf).
    final class Entry {
        let configuration: ZoneConfiguration
        /// The description, then each zone's fields.
        private let text: UnsafeMutableRawBufferPointer
        /// Where each piece ends in `text`: the description's, then each zone's.
        private let ends: UnsafeMutableBufferPointer<Int>

        init(configuration: ZoneConfiguration, pieces: [[UInt8]]) {
            self.configuration = configuration
            text = .allocate(byteCount: max(1, pieces.reduce(0) { $0 + $1.count }), alignment: 1)
            ends = .allocate(capacity: pieces.count)
            var end = 0
            for (index, piece) in pieces.enumerated() {
                piece.withUnsafeBytes {
                    UnsafeMutableRawBufferPointer(rebasing: text[end..<(end + $0.count)]).copyMemory(from: $0)
                }
                end += piece.count
                ends[index] = end
            }
        }

        deinit {
            text.deallocate()
            ends.deallocate()
        }

        /// `"source":"…","unit":"…","boundaries":[…]`; valid while the entry lives.
        var description: UnsafeRawBufferPointer { piece(0) }

        /// Zone `zone`'s `{"index":N,"min":X,"max":Y` (no closing brace: the durations list
        /// adds a field); valid while the entry lives.
        func zoneFields(_ zone: Int) -> UnsafeRawBufferPointer { piece(zone + 1) }

        private func piece(_ index: Int) -> UnsafeRawBufferPointer {
            let start = index == 0 ? 0 : ends[index - 1]
            return UnsafeRawBufferPointer(rebasing: text[start..<ends[index]])
        }
    }

    /// A power of two; a configuration whose slot holds another is written again and replaces
    /// it (the hash leaves the source out: the equality check has it).
    static let slotCount = 4096
    private var slots = [Entry?](repeating: nil, count: slotCount)

    /// The text of `configuration`, written now if its slot holds another.
    mutating func entry(for configuration: ZoneConfiguration) -> Entry {
        let slot = Self.slot(of: configuration)
        if let entry = slots[slot], entry.configuration == configuration { return entry }
        let entry = Self.write(configuration)
        slots[slot] = entry
        return entry
    }

    /// The slot of a configuration: its boundaries' bits mixed so that every bit reaches the
    /// low bits the slot is taken from. (A multiply-only mix took the slot
    /// from bits that whole-number boundaries, whose low mantissa bits are all zero, never
    /// reached: a gym's members' zones fell into a handful of slots and missed.)
    static func slot(of configuration: ZoneConfiguration) -> Int {
        var hash = UInt64(configuration.boundaries.count) &* 0x9E37_79B9_7F4A_7C15
        for index in 0..<configuration.boundaries.count {
            hash = (hash ^ configuration.boundaries[index].bitPattern) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 32
        }
        // MurmurHash3's 64-bit finalizer.
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash) & (slotCount - 1)
    }

    private static func write(_ configuration: ZoneConfiguration) -> Entry {
        var text = JSONTextWriter(capacity: 256)
        text.appendConfigurationFields(configuration)
        var pieces = [text.takeBytes()]
        for zone in 0..<configuration.zoneCount {
            text.appendZoneFields(zone, of: configuration)
            pieces.append(text.takeBytes())
        }
        return Entry(configuration: configuration, pieces: pieces)
    }
}

extension JSONTextWriter {
    /// A zone configuration's members as the contract writes them:
    /// `"source":"…","unit":"…","boundaries":[…]` (no braces).
    mutating func appendConfigurationFields(_ configuration: ZoneConfiguration) {
        append(#""source":""#)
        appendUnescaped(configuration.source.rawValue)
        append(#"","unit":""#)
        appendUnescaped(configuration.unit)
        append(#"","boundaries":["#)
        for index in 0..<configuration.boundaries.count {
            if index > 0 { append(",") }
            appendNumber(configuration.boundaries[index])
        }
        append("]")
    }

    /// The start of zone `zone`'s object: `{"index":N,"min":X,"max":Y` (no closing brace, so
    /// a durations list can add its field).
    mutating func appendZoneFields(_ zone: Int, of configuration: ZoneConfiguration) {
        append(#"{"index":"#)
        appendInteger(Int64(zone + 1))
        append(#","min":"#)
        if let lower = configuration.lowerBound(ofZone: zone) { appendNumber(lower) } else { append("null") }
        append(#","max":"#)
        if let upper = configuration.upperBound(ofZone: zone) { appendNumber(upper) } else { append("null") }
    }
}

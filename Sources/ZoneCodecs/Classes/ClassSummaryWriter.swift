public import ZoneEngine

/// Writes `class_summary` events (contract, section 4): the one writer of that format.
public struct ClassSummaryWriter {
    private var text = JSONTextWriter(capacity: 2048)

    public init() {}

    /// The event for `summary`, as bytes.
    public mutating func write(_ summary: ClassSummary) -> [UInt8] {
        text.removeAll()
        text.append(#"{"schema":1,"type":"class_summary","class":"#)
        text.appendString(summary.sessionClass)
        text.append(#","day":""#)
        text.appendUnescaped(ClassSummary.date(ofDay: summary.day))
        text.append(#"","as_of_ts":"#)
        text.appendInteger(summary.asOfTimestamp)
        text.append(#","last_session":"#)
        text.appendString(summary.lastSession)
        text.append(#","workouts":"#)
        text.appendInteger(Int64(summary.workouts))
        text.append(#","people":"#)
        text.appendInteger(Int64(summary.people))
        text.append(#","duration_ms":"#)
        text.appendInteger(summary.durationMs)
        text.append(#","points":"#)
        text.appendTenths(summary.pointsTenths)
        text.append(#","calories_kcal":"#)
        text.appendInteger(summary.caloriesKcal)
        text.append(#","kilojoules":"#)
        text.appendTenths(summary.kilojoulesTenths)
        text.append(#","intensity_ms":["#)
        for (index, band) in summary.intensityMs.enumerated() {
            if index > 0 { text.append(",") }
            text.appendInteger(band)
        }
        text.append(#"],"compliance":"#)
        appendCompliance(summary.compliance)
        text.append(#","leaderboard":["#)
        for (index, entry) in summary.leaderboard.enumerated() {
            if index > 0 { text.append(",") }
            appendEntry(entry)
        }
        text.append("]}")
        return text.bytes
    }

    private mutating func appendEntry(_ entry: ClassWorkout) {
        text.append(#"{"session":"#)
        text.appendString(entry.session)
        text.append(#","start_ts":"#)
        text.appendInteger(entry.startTimestamp)
        text.append(#","person":"#)
        if let person = entry.person { text.appendString(person) } else { text.append("null") }
        text.append(#","points":"#)
        if let points = entry.pointsTenths { text.appendTenths(points) } else { text.append("null") }
        text.append(#","calories_kcal":"#)
        if let calories = entry.caloriesKcal { text.appendInteger(calories) } else { text.append("null") }
        text.append(#","kilojoules":"#)
        if let work = entry.kilojoulesTenths { text.appendTenths(work) } else { text.append("null") }
        text.append(#","compliance":"#)
        if let compliance = entry.compliance { appendCompliance(compliance) } else { text.append("null") }
        text.append("}")
    }

    /// `{quantity: ratio|null}` for each quantity with counts.
    private mutating func appendCompliance(_ compliance: PerQuantity<ClassWorkout.ComplianceCounts?>) {
        text.append("{")
        var first = true
        for quantity in Quantity.allCases {
            guard let counts = compliance[quantity] else { continue }
            if !first { text.append(",") }
            first = false
            text.append("\"")
            text.appendUnescaped(quantity.name)
            text.append(#"":"#)
            text.appendCompliance(counts.countedMs > 0 ? (counts.inMs, counts.countedMs) : nil)
        }
        text.append("}")
    }
}

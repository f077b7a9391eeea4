public import ZoneEngine

/// Writes `person_summary` events (docs/reference/contract.md), the one writer of that format.
public struct PersonSummaryWriter {
    private var text = JSONTextWriter(capacity: 512)

    public init() {}

    /// The event for `summary`, as bytes.
    public mutating func write(_ summary: PersonSummary) -> [UInt8] {
        text.removeAll()
        text.append(#"{"schema":1,"type":"person_summary","person":"#)
        text.appendString(summary.person)
        text.append(#","as_of_ts":"#)
        text.appendInteger(summary.asOfTimestamp)
        text.append(#","last_session":"#)
        text.appendString(summary.lastSession)
        text.append(#","days_7":"#)
        appendWindow(summary.days7)
        text.append(#","days_28":"#)
        appendWindow(summary.days28)
        text.append(#","acute_chronic_ratio":"#)
        if let ratio = summary.acuteChronicRatioHundredths { text.appendHundredths(ratio) } else { text.append("null") }
        text.append("}")
        return text.bytes
    }

    private mutating func appendWindow(_ window: PersonSummary.Window) {
        text.append(#"{"workouts":"#)
        text.appendInteger(Int64(window.workouts))
        text.append(#","duration_ms":"#)
        text.appendInteger(window.durationMs)
        text.append(#","points":"#)
        text.appendTenths(window.pointsTenths)
        text.append(#","calories_kcal":"#)
        text.appendInteger(window.caloriesKcal)
        text.append(#","kilojoules":"#)
        text.appendTenths(window.kilojoulesTenths)
        text.append("}")
    }
}

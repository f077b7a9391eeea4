/// When each class of a load run starts: classes spread evenly over a number of UTC days,
/// those of one day one after another with a minute between them.
public struct ClassSchedule: Sendable {
    public static let dayMs: Int64 = 86_400_000
    /// Classes in the run.
    public let classes: Int
    /// UTC days the classes are spread over (1: all on the first).
    public let days: Int
    public let classSeconds: Int
    /// Simulated start of the first class, ms since the epoch.
    public let firstStartMs: Int64

    public init(classes: Int, days: Int, classSeconds: Int, firstStartMs: Int64) {
        self.classes = max(0, classes)
        self.days = max(1, days)
        self.classSeconds = classSeconds
        self.firstStartMs = firstStartMs
    }

    /// Now, or `days - 1` days before now, so the last day's classes run today and sample
    /// ages read true.
    public static func defaultStart(days: Int, nowMs: Int64) -> Int64 {
        nowMs / 1000 * 1000 - Int64(max(1, days) - 1) * dayMs
    }

    /// The UTC day (from the first) a class runs on.
    public func day(ofClass index: Int) -> Int { index * days / max(1, classes) }

    /// The simulated start of a class: its day, then after the earlier classes of that day.
    public func startMs(ofClass index: Int) -> Int64 {
        let day = day(ofClass: index)
        let firstOfDay = (0...index).first { self.day(ofClass: $0) == day } ?? index
        return firstStartMs + Int64(day) * Self.dayMs + Int64(index - firstOfDay) * Int64(classSeconds + 60) * 1000
    }
}

/// Tells a stall of the thread that looks at the clock (a frozen process, a paused container, a
/// machine that stood still) from its ordinary pauses: a gap between two looks longer than
/// ``ProcessorConfiguration/stallMs``. The one rule for the workers' idle clocks and the keyed
/// stages' holds, fed by one clock (``WallClock``): a wall clock stepped forward reads as a
/// stall, which only makes idle timeouts and a stage's outputs wait a session timeout, and one
/// stepped back as no time at all. A value that only reads the times it is given, so the rule
/// is tested without a stall.
struct StallDetector {
    private var lastLookMs: Int64

    init(nowMs: Int64) {
        lastLookMs = nowMs
    }

    /// Looks at the clock at `nowMs`: the time since the last look (0 when the clock went
    /// back), and whether that was a stall.
    mutating func look(at nowMs: Int64) -> (elapsedMs: Int64, stalled: Bool) {
        let elapsed = max(0, nowMs - lastLookMs)
        lastLookMs = max(lastLookMs, nowMs)
        return (elapsed, elapsed > ProcessorConfiguration.stallMs)
    }
}

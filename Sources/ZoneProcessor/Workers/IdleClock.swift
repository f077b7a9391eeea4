/// A partition's idle clock (docs/reference/contract.md): wall-clock time that stands still while
/// the partition is not caught up (records wait for it in Kafka: an outage, a restart, a
/// backlog) and while its worker was stalled (a frozen process, a paused container), so a
/// session is never ended for a silence that was the processor's, not the session's.
///
/// Sessions of the partition are stamped with this clock's time when they apply an event;
/// idle timeouts compare against it. After a stall, idle timeouts also wait for a grace
/// period (the group's session timeout) in which a replaced instance learns that it no
/// longer owns the partition, so a zombie never ends a session it lost.
struct IdleClock {
    /// Wall milliseconds the clock stood still since the partition was assigned.
    private(set) var heldMs: Int64 = 0
    private var stalls: StallDetector
    /// No idle timeout before this wall time (set after a stall).
    private(set) var quietUntilMs: Int64 = 0

    init(wallMs: Int64) {
        stalls = StallDetector(nowMs: wallMs)
    }

    /// The clock's time at wall time `wallMs`.
    @inline(__always)
    func time(at wallMs: Int64) -> Int64 { wallMs - heldMs }

    /// Moves the clock to `wallMs`. The time since the last check counts only when the
    /// partition is caught up and the gap is not a stall (``StallDetector``). Returns whether
    /// idle timeouts may run now.
    mutating func advance(to wallMs: Int64, caughtUp: Bool, graceMs: Int64) -> Bool {
        let (elapsed, stalled) = stalls.look(at: wallMs)
        if stalled {
            heldMs += elapsed
            quietUntilMs = wallMs + graceMs
            return false
        }
        if !caughtUp {
            heldMs += elapsed
            return false
        }
        return wallMs >= quietUntilMs
    }
}

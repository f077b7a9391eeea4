/// What a keyed stage does at least once after its thread stalled (a frozen process, a paused
/// container, a machine that stood still): it may have been replaced in its group while it stood still,
/// and a successor may already have published newer summaries of the same keys. So for the
/// group's session timeout after a stall, in which a replaced member learns that it lost its
/// partitions, the stage holds its outputs and its changelog instead of sending them. A
/// partition revoked in that time takes its held outputs with it (its next owner reads the
/// records again); when the time passes with the partition still owned, they go out.
///
/// A value type that only reads the clock it is given, so the rule is tested without a stall.
struct StallHold<Output> {
    /// How long outputs are held after a stall.
    let graceMs: Int64
    /// The most outputs held; past it the hold ends early (its outputs go out, as they would
    /// without a hold), so a hold never grows without bound.
    let capacity: Int
    /// The stage looks at least every poll (100 ms).
    private var stalls: StallDetector
    private var holdUntilMs: Int64 = .min
    /// Held outputs by partition, in the order they were made.
    private(set) var held: [Int32: [Output]] = [:]
    private(set) var heldCount = 0

    init(graceMs: Int64, capacity: Int, nowMs: Int64) {
        self.graceMs = graceMs
        self.capacity = capacity
        stalls = StallDetector(nowMs: nowMs)
    }

    /// Looks at the clock: a stall since the last look starts (or extends) a hold. Whether
    /// outputs are held now.
    mutating func isHolding(nowMs: Int64) -> Bool {
        if stalls.look(at: nowMs).stalled { holdUntilMs = nowMs + graceMs }
        return nowMs < holdUntilMs
    }

    /// Holds `output` of `partition`; false when the hold is full (send it, and what is held).
    mutating func hold(_ output: Output, partition: Int32) -> Bool {
        guard heldCount < capacity else { return false }
        held[partition, default: []].append(output)
        heldCount += 1
        return true
    }

    /// Ends the hold and returns what it held, partition by partition, to be sent now.
    mutating func release() -> [Int32: [Output]] {
        holdUntilMs = .min
        defer {
            held = [:]
            heldCount = 0
        }
        return held
    }

    /// Drops what `partition` held: it was revoked, and its next owner reads its records again.
    mutating func drop(partition: Int32) {
        heldCount -= held.removeValue(forKey: partition)?.count ?? 0
    }
}

import Logging

/// A summary made while the stage holds its outputs after a stall, sent when the hold ends
/// with its partition still owned.
struct HeldSummary {
    let topic: String
    let key: String
    let value: [UInt8]
    /// Where the input it was made for lies.
    let input: OutputContext
}

/// The stage after a stall of its thread (``StallHold``): summaries and changelog held for the
/// group's session timeout, sent once it has passed with the partitions still owned.
extension KeyedStage {
    /// Summaries held at most; past it they go out as they are made (a hold lasts a session
    /// timeout, in which a stage of finished workouts makes far fewer).
    static var heldSummariesLimit: Int { 100_000 }

    /// Whether outputs are held now (a stall since the last look starts a hold). Never
    /// exactly-once: there the broker fences a replaced member's transaction, and a batch is
    /// committed whole on a revocation.
    func isHolding() -> Bool { !transactional && stallHold.isHolding(nowMs: WallClock.nowMs()) }

    /// Produces a summary, or holds it while the stage holds its outputs.
    func produceSummary(topic: String, key: String, value: [UInt8], partition: Int32, input: OutputContext) {
        let summary = HeldSummary(topic: topic, key: key, value: value, input: input)
        if isHolding() && stallHold.hold(summary, partition: partition) { return }
        if stallHold.heldCount > 0 { sendHeldSummaries() }
        produce(topic: topic, key: key, value: value, input: input)
    }

    /// Sends what a hold that has ended (or filled up) held, in the order it was made.
    func sendHeldSummaries() {
        guard stallHold.heldCount > 0 else { return }
        let held = stallHold.release()
        logger.info(
            "stage sends the summaries it held after a stall",
            metadata: ["stage": "\(aggregation.role.name)", "summaries": "\(held.values.map(\.count).reduce(0, +))"])
        for (_, summaries) in held {
            for summary in summaries {
                produce(topic: summary.topic, key: summary.key, value: summary.value, input: summary.input)
            }
        }
    }
}

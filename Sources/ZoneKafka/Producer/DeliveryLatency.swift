import Synchronization

/// The longest time from produce to the broker's acknowledgement among the messages delivered
/// since it was last taken, as librdkafka measures it (`rd_kafka_message_latency`). Every
/// ``DeliveryTracker`` made with one reports into it; its owner takes the figure once per
/// batch or commit, so a metric costs one atomic compare per delivered message.
public final class DeliveryLatency: Sendable {
    /// Microseconds; -1 when nothing was delivered since the last take.
    private let longest = Atomic<Int64>(-1)

    public init() {}

    /// Called by the delivery-report callback of each delivered message.
    func delivered(microseconds: Int64) {
        guard microseconds >= 0 else { return }
        var current = longest.load(ordering: .relaxed)
        while microseconds > current {
            let (exchanged, now) = longest.compareExchange(
                expected: current, desired: microseconds, ordering: .relaxed)
            if exchanged { return }
            current = now
        }
    }

    /// The longest delivery since the last call, in microseconds; nil when none was delivered.
    public func takeLongest() -> Int64? {
        let value = longest.exchange(-1, ordering: .relaxed)
        return value >= 0 ? value : nil
    }
}

/// A sample held back by the reorder window.
struct PendingSample: Sendable, Equatable {
    var quantity: Quantity
    var timestamp: Int64
    var value: Double
}

extension WorkoutSession {
    /// Holds a sample in time order (after any held sample with the same time, so arrival
    /// order decides between equal times) and notes the newest time seen.
    mutating func hold(_ sample: PendingSample) {
        if sample.timestamp > newestSampleTimestamp { newestSampleTimestamp = sample.timestamp }
        var index = pendingSamples.count
        while index > 0 && pendingSamples[index - 1].timestamp > sample.timestamp { index -= 1 }
        pendingSamples.insert(sample, at: index)
    }

    /// Takes the oldest held sample if its time is at most `limit`.
    mutating func takeHeld(through limit: Int64) -> PendingSample? {
        guard let first = pendingSamples.first, first.timestamp <= limit else { return nil }
        return pendingSamples.removeFirst()
    }

    /// Drops the held samples left (after `session_end`: they fall after the workout) and
    /// counts them late.
    mutating func dropHeldAsLate() {
        counters.lateSamples += pendingSamples.count
        pendingSamples.removeAll()
    }
}

extension WorkoutSession {
    /// The newest sample time the reorder window has seen (`Int64.min` before any).
    public var newestHeldTimestamp: Int64 { newestSampleTimestamp }

    /// How many samples the reorder window holds back now.
    public var heldSampleCount: Int { pendingSamples.count }
}

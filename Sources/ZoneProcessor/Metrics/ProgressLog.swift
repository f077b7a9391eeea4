import Dispatch
import Logging
import Synchronization

/// The progress line an operator reads in the log: once per interval at info, how fast the
/// instance went since the last line, how far behind it is, what it holds and what it refused.
/// Owned by the thread that serves the group (no sharing).
struct ProgressLog {
    private let intervalNanoseconds: UInt64
    private var lastTime = DispatchTime.now().uptimeNanoseconds
    private var lastRecords = 0
    private var lastDeadLetters = 0

    /// `intervalMs`: 0 turns the line off.
    init(intervalMs: Int) {
        intervalNanoseconds = UInt64(max(0, intervalMs)) * 1_000_000
    }

    /// Logs the line if an interval has passed since the last one.
    mutating func logIfDue(_ processor: ZoneProcessor) {
        guard intervalNanoseconds > 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastTime >= intervalNanoseconds else { return }
        let metrics = processor.metrics
        let records = metrics.recordsIn.load(ordering: .relaxed)
        let deadLetters = metrics.deadLetters.load(ordering: .relaxed)
        let seconds = Double(now - lastTime) / 1e9
        processor.logger.info(
            "progress",
            metadata: [
                "records_per_s": "\(Int((Double(records - lastRecords) / seconds).rounded()))",
                "lag": "\(processor.metrics.workers.lag.totalLag.load(ordering: .relaxed))",
                "live_sessions": "\(processor.liveSessions)",
                "dead_letters": "\(deadLetters - lastDeadLetters)",
                "dead_letters_total": "\(deadLetters)",
                "ready": "\(processor.isReady)",
            ])
        lastTime = now
        lastRecords = records
        lastDeadLetters = deadLetters
    }
}

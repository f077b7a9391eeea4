import Foundation

/// Records per second over a run, one point every `interval` seconds, for the plot: every
/// measured client (bare consumer, I/O floor, ZoneStream) keeps one, so their dips can be
/// compared on one time axis.
struct ThroughputTimeline {
    private(set) var points: [[Double]] = []
    private var started: Date?
    private var lastTime = Date()
    private var lastCount = 0
    let interval: TimeInterval

    init(interval: TimeInterval = 0.1) {
        self.interval = interval
    }

    /// Notes the running count; adds a point when an interval has passed (or at the end).
    mutating func note(count: Int, final: Bool = false) {
        let now = Date()
        guard let started else {
            if count > 0 {
                self.started = now
                lastTime = now
                lastCount = count
            }
            return
        }
        let elapsed = now.timeIntervalSince(lastTime)
        guard elapsed >= interval || (final && elapsed > 0) else { return }
        points.append([now.timeIntervalSince(started), Double(count - lastCount) / elapsed])
        lastTime = now
        lastCount = count
    }
}

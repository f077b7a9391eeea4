import Logging

/// A warning that can come many times a second (a commit refused during a rebalance, or after
/// a frozen instance wakes) logged at most once per interval: the first at once, later ones
/// counted and reported on the next line as `repeated` (how many were not logged since).
/// A value owned by the thread that logs it.
struct RepeatedWarning {
    let message: Logger.Message
    let intervalMs: Int64
    private var suppressed = 0
    private var lastLoggedMs = Int64.min

    init(_ message: Logger.Message, intervalMs: Int64 = 10_000) {
        self.message = message
        self.intervalMs = intervalMs
    }

    mutating func log(to logger: Logger, metadata: Logger.Metadata, nowMs: Int64 = WallClock.nowMs()) {
        guard lastLoggedMs == .min || nowMs - lastLoggedMs >= intervalMs else {
            suppressed += 1
            return
        }
        var metadata = metadata
        if suppressed > 0 { metadata["repeated"] = .stringConvertible(suppressed) }
        logger.warning(message, metadata: metadata)
        lastLoggedMs = nowMs
        suppressed = 0
    }
}

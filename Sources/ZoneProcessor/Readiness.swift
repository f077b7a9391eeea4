import Logging
import NIOConcurrencyHelpers
import Synchronization

/// Whether an instance can serve (`GET /ready`), whether it is processing its partitions
/// (`GET /ready?processing`), and what it is doing.
///
/// Once an instance has restored and consumed its first partitions it stays ready through
/// later rebalances and restores: its views answer from the group-wide table, seconds stale at
/// most, and a Service that dropped every instance at once on each rebalance would take the
/// gym's board and queries dark for nothing. Until then it is not ready, so a startup probe on
/// `/ready` covers the first restore.
public struct Readiness: Sendable, Equatable {
    public let isReady: Bool
    /// Consuming its assigned partitions now (not starting, rebalancing or restoring).
    public let isProcessing: Bool
    /// What it is doing: `consuming`, `starting: …`, `not assigned yet: …`,
    /// `rebalancing: …`, `restoring N partitions …`, `broker unreachable: …`, `stopping`.
    public let reason: String

    init(isReady: Bool, isProcessing: Bool = false, reason: String) {
        self.isReady = isReady
        self.isProcessing = isProcessing
        self.reason = reason
    }

    /// The reason without its changing figures (what follows the first colon): a change of
    /// readiness is logged when this or ``isReady`` changes, not at each record a restore reads.
    var state: Substring { reason.prefix { $0 != ":" } }
}

extension ZoneProcessor {
    /// Whether the instance is ready, and if not, why: what `GET /ready` answers.
    public var readiness: Readiness {
        let current = state.withLockedValue { $0 }
        switch current {
        case .stopping, .stopped:
            return Readiness(isReady: false, reason: "stopping")
        case .created, .starting, .running:
            break
        }
        if !brokerReachable.load(ordering: .relaxed) {
            return Readiness(isReady: false, reason: "broker unreachable: no connection to any Kafka broker")
        }
        switch current {
        case .created, .starting:
            return Readiness(isReady: false, reason: "starting: reading the zone-profiles table")
        case .running(assigned: false):
            return Readiness(
                isReady: false, reason: "not assigned yet: waiting for the consumer group to assign partitions")
        default:
            let served = hasProcessed.load(ordering: .relaxed)
            if let rebalancingMs = rebalanceClock.rebalancingMs {
                return Readiness(
                    isReady: served,
                    reason:
                        "rebalancing: partitions revoked \(rebalancingMs) ms ago, waiting for the group's assignment")
            }
            let restoring = metrics.partitionsRestoring.load(ordering: .relaxed)
            if restoring > 0 {
                return Readiness(
                    isReady: served, reason: Self.restoringReason(restoring, metrics.state.restoresUnderWay))
            }
            hasProcessed.store(true, ordering: .relaxed)
            return Readiness(isReady: true, isProcessing: true, reason: "consuming")
        }
    }

    /// "restoring 3 partitions from the changelog: 4 (1200 records left, about 2 s), ...":
    /// the partitions being read now, with what is left and the time that takes at their rate
    /// so far; the others wait for their worker.
    static func restoringReason(_ restoring: Int, _ underWay: [StateMetrics.Restore]) -> String {
        var reason = "restoring \(restoring) partition\(restoring == 1 ? "" : "s") from the changelog"
        guard !underWay.isEmpty else { return reason }
        let details = underWay.map { restore in
            let rate = restore.recordsPerSecond
            let estimate = rate > 0 ? ", about \(Int((Double(restore.recordsLeft) / rate).rounded(.up))) s" : ""
            return "\(restore.partition) (\(restore.recordsLeft) records left\(estimate))"
        }
        reason += ": " + details.joined(separator: ", ")
        return reason
    }

    /// Logs the readiness when it changed since the last call (once per change).
    func logReadinessChange() {
        let now = readiness
        let changed = loggedReadiness.withLockedValue { last -> Bool in
            defer { last = now }
            return last?.isReady != now.isReady || last?.state != now.state
        }
        guard changed else { return }
        logger.info(
            now.isReady ? "ready" : "not ready",
            metadata: ["ready": .stringConvertible(now.isReady), "reason": "\(now.reason)"])
    }
}

import ZoneEngine

/// One owned partition of `workout-events`: its sessions and how far it has been applied.
struct PartitionState {
    var store: SessionStore
    /// The next offset to apply; records below it were applied already and change nothing.
    var nextOffset: Int64 = -1
    /// The next offset as of the last sealed commit epoch (committed once its outputs are delivered).
    var committedOffset: Int64 = -1
    /// After a restore: per session, the input offset its restored state reflects (its records
    /// below it were applied by the previous owner and change nothing now).
    var replaySkip: [String: Int64] = [:]
    /// The highest of `replaySkip`; past it the map is dropped.
    var replayHorizon: Int64 = -1
    /// The time idle timeouts and retention count in: it stands still while the partition is
    /// behind or the worker stalled.
    var idleClock: IdleClock
    /// The group's committed offset when the partition was assigned (-1: none): with nothing
    /// consumed yet, the partition is caught up once this reaches the high watermark.
    var assignedOffset: Int64 = -1
    /// The partition's end (high watermark) asked of the broker when it was assigned (-1: not
    /// known). The consumer's cached watermark of a partition this instance owned before is
    /// as old as its last fetch of it, which can be below what the owner in between committed:
    /// the partition then looked caught up before this instance had read anything of it, and
    /// its idle clock ran while its records waited in Kafka.
    var assignedEnd: Int64 = -1
    /// Sessions whose start waits for the tables, with their records (``TableJoin``).
    var parked = ParkedSessions()
    /// This worker's copy of the offset below which the tables cover the partition's records
    /// (``TableCoverage``): a record below it goes straight to the engine.
    var coveredBelow: Int64 = 0

    init(settings: EngineSettings, wallMs: Int64) {
        store = SessionStore(settings: settings)
        idleClock = IdleClock(wallMs: wallMs)
    }

    /// Whether every record the broker held for the partition is applied: as far as the
    /// consumer's cached watermarks (`known`, nil when it has none) and the end asked at the
    /// assignment tell, from the consumer's fetch `position`, the next offset to apply or the
    /// offset committed at the assignment. Never while sessions are held for the tables.
    func isCaughtUp(known: (low: Int64, high: Int64)?, position: Int64) -> Bool {
        guard parked.isEmpty, let known else { return false }
        let high = max(known.high, assignedEnd)
        if high <= known.low { return true }
        return max(position, nextOffset, assignedOffset) >= high
    }

    /// The offset to commit: the next one to apply, or the first record held back if lower
    /// (a held record is read again after a crash or a rebalance).
    var commitOffset: Int64 { parked.firstOffset.map { min($0, nextOffset) } ?? nextOffset }

    var hasUncommittedProgress: Bool { commitOffset > committedOffset }

    /// Whether a record at `offset` must be looked at by the table join before the engine
    /// applies it: not covered yet, or its partition holds sessions back.
    mutating func mayWaitForTables(offset: Int64) -> Bool { offset >= coveredBelow || !parked.isEmpty }

    /// Whether the record at `offset` was applied already. `mutating` on purpose: called
    /// through `Dictionary.Values`' subscript, a mutating call accesses the state in place,
    /// where reading `nextOffset` through the getter copied the whole state for every record.
    mutating func hasApplied(offset: Int64) -> Bool { offset < nextOffset }

    /// The idle clock's time at wall time `wallMs`; `mutating` for the same reason as
    /// ``hasApplied(offset:)``: read through the getter, it copied the state for every record,
    /// and the copy's retains and releases took about a sixth of a worker's CPU.
    mutating func idleTime(at wallMs: Int64) -> Int64 { idleClock.time(at: wallMs) }

    /// The input offset below which every record of `session` is reflected in its state (a
    /// session held back reflects nothing from its first held record on).
    func appliedThrough(_ session: String) -> Int64 {
        parked.firstOffset(of: session) ?? max(nextOffset, replaySkip[session] ?? -1)
    }

    /// Whether a record at `offset` of `session` was applied before the restore.
    mutating func wasAppliedBeforeRestore(_ session: String, offset: Int64) -> Bool {
        guard offset < replayHorizon else {
            if !replaySkip.isEmpty { replaySkip = [:] }
            return false
        }
        return offset < replaySkip[session] ?? -1
    }
}

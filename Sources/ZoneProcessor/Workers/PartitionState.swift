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

    init(settings: EngineSettings, wallMs: Int64) {
        store = SessionStore(settings: settings)
        idleClock = IdleClock(wallMs: wallMs)
    }

    var hasUncommittedProgress: Bool { nextOffset > committedOffset }

    /// Whether the record at `offset` was applied already. `mutating` on purpose: called
    /// through `Dictionary.Values`' subscript, a mutating call accesses the state in place,
    /// where reading `nextOffset` through the getter copied the whole state for every record.
    mutating func hasApplied(offset: Int64) -> Bool { offset < nextOffset }

    /// The idle clock's time at wall time `wallMs`; `mutating` for the same reason as
    /// ``hasApplied(offset:)``: read through the getter, it copied the state for every record,
    /// and the copy's retains and releases took about a sixth of a worker's CPU.
    mutating func idleTime(at wallMs: Int64) -> Int64 { idleClock.time(at: wallMs) }

    /// The input offset below which every record of `session` is reflected in its state.
    func appliedThrough(_ session: String) -> Int64 { max(nextOffset, replaySkip[session] ?? -1) }

    /// Whether a record at `offset` of `session` was applied before the restore.
    mutating func wasAppliedBeforeRestore(_ session: String, offset: Int64) -> Bool {
        guard offset < replayHorizon else {
            if !replaySkip.isEmpty { replaySkip = [:] }
            return false
        }
        return offset < replaySkip[session] ?? -1
    }
}

import ZoneEngine

/// One owned partition of `workout-events`: its sessions and how far it has been applied.
struct PartitionState {
    var store: SessionStore
    /// The next offset to apply; records below it were applied already and change nothing.
    var nextOffset: Int64 = -1
    /// The next offset as of the last sealed commit epoch (committed once its outputs are delivered).
    var committedOffset: Int64 = -1

    init(settings: EngineSettings) {
        store = SessionStore(settings: settings)
    }

    var hasUncommittedProgress: Bool { nextOffset > committedOffset }
}

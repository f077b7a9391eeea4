import ZoneEngine

/// What a worker counted since it last reported to ``ProcessorMetrics``: counted locally and
/// published once per batch, so no shared cache line is written per record.
struct BatchCounts {
    var records = 0
    var samples = 0
    var zoneChanges = 0
    var targetChanges = 0
    /// Records applied after being held for the tables (``TableJoin``).
    var released = 0
    /// The oldest sample time behind a zone change (`Int64.max`: none), for the sample-age
    /// histogram.
    var oldestZoneChangeTs = Int64.max

    /// Counts a record's outputs; returns how many workouts finished (each frees a place under
    /// the live-session cap).
    mutating func count(_ outputs: borrowing EngineOutputs) -> Int {
        zoneChanges += outputs.zoneChanges.count
        targetChanges += outputs.targetChanges.count
        for index in outputs.zoneChanges.indices {
            oldestZoneChangeTs = min(oldestZoneChangeTs, outputs.zoneChanges[index].change.timestamp)
        }
        return outputs.finished.count
    }
}

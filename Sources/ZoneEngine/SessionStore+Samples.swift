/// The store's per-sample path: samples applied in place, through the reorder window when it
/// is on, their zone and target changes appended to the caller's outputs.
extension SessionStore {
    /// The per-sample path of the store: one hash lookup, then the session's hot path in place.
    /// A sample for a session that is not live here is ignored; use ``handle(_:wallMs:outputs:)``
    /// for samples that may start a session.
    public mutating func applySample(
        _ id: String, _ quantity: Quantity, at timestamp: Int64, value: Double, wallMs: Int64,
        outputs: inout EngineOutputs
    ) {
        guard let slot = slots.slot(of: id) else { return }
        markChanged(slot: slot)
        applySample(slot: slot, quantity, at: timestamp, value: value, wallMs: wallMs, outputs: &outputs)
    }

    mutating func applySample(
        slot: Int, _ quantity: Quantity, at timestamp: Int64, value: Double, wallMs: Int64,
        outputs: inout EngineOutputs
    ) {
        if settings.reorderWindowMs > 0 {
            live[slot].lastAppliedWallMs = wallMs
            live[slot].hold(PendingSample(quantity: quantity, timestamp: timestamp, value: value))
            let newest = live[slot].newestSampleTimestamp
            releaseHeld(slot: slot, through: newest &- settings.reorderWindowMs, wallMs: wallMs, outputs: &outputs)
            return
        }
        applyNow(slot: slot, quantity, at: timestamp, value: value, wallMs: wallMs, outputs: &outputs)
    }

    /// Applies held samples with a time up to `limit`, oldest first.
    mutating func releaseHeld(slot: Int, through limit: Int64, wallMs: Int64, outputs: inout EngineOutputs) {
        while let held = live[slot].takeHeld(through: limit) {
            applyNow(
                slot: slot, held.quantity, at: held.timestamp, value: held.value, wallMs: wallMs, outputs: &outputs)
        }
    }

    @inline(__always)
    private mutating func applyNow(
        slot: Int, _ quantity: Quantity, at timestamp: Int64, value: Double, wallMs: Int64,
        outputs: inout EngineOutputs
    ) {
        switch live[slot].applySample(quantity, at: timestamp, value: value, settings: settings) {
        case .accepted(let changes):
            live[slot].lastAppliedWallMs = wallMs
            if !changes.isEmpty {
                publish(changes, slot: slot, quantity, at: timestamp, value: value, outputs: &outputs)
            }
        case .late: sampleQuality.late += 1
        case .duplicate: sampleQuality.duplicate += 1
        case .paused: break
        }
    }

    /// Appends what an accepted sample published, read from its session in place.
    @inline(__always)
    private func publish(
        _ changes: SampleChanges, slot: Int, _ quantity: Quantity, at timestamp: Int64, value: Double,
        outputs: inout EngineOutputs
    ) {
        // A zone change is only published for a quantity with zones.
        if changes.contains(.zone), let configuration = live[slot].configuration(for: quantity),
            let change = live[slot].publishedZoneChange(quantity, at: timestamp)
        {
            outputs.zoneChanged(change, configuration: configuration, session: live[slot].identity)
        }
        if changes.contains(.target),
            let target = live[slot].publishedTargetChange(quantity, at: timestamp, value: value)
        {
            outputs.targetChanged(target, session: live[slot].identity)
        }
    }
}

import ZoneKafka

/// The at-least-once commit ledger of one worker: sealed epochs in order, and what each needs
/// next. It decides and the worker acts: ``nextStep()`` says what to do (answer refused
/// outputs, write an epoch's changelog, commit offsets), the worker does it and reports back.
///
/// The invariant it keeps (docs/explanation/guarantees.md): an epoch's changelog is written only once its
/// outputs are settled, in epoch order, and its offsets are committed only once that changelog
/// is delivered. A partition whose changelog lost a write keeps its offsets uncommitted until
/// a later epoch has rewritten its whole state.
struct CommitLedger {
    /// What the worker must do next.
    enum Step {
        /// These outputs of epoch `tracker` were refused: answer each into that tracker.
        case answer([DeliveryFailure], into: DeliveryTracker)
        /// Epoch `epoch`'s outputs are settled: produce its changelog records, then call
        /// ``changelogProduced(epoch:tracker:refused:)``.
        case writeChangelog(epoch: Int, [ChangelogWrite])
        /// Commit these offsets. `rewrite`: partitions whose changelog lost a write, to be
        /// rewritten whole by the next epoch.
        case commit([Int32: Int64], rewrite: Set<Int32>, error: String?)
        /// Nothing to do until more deliveries are reported.
        case wait
    }

    private(set) var epochs: [CommitEpoch] = []

    var isEmpty: Bool { epochs.isEmpty }

    mutating func seal(_ epoch: CommitEpoch) { epochs.append(epoch) }

    /// The next thing to do; call again after doing it, until it says `.wait`.
    mutating func nextStep() -> Step {
        // Outputs settle, and changelogs are written, oldest first: a later epoch's changelog
        // never overtakes an earlier one's.
        for index in epochs.indices where epochs[index].changelogTracker == nil {
            let outputs = epochs[index].outputs
            guard outputs.inFlight == 0 else { break }
            let refused = outputs.takeFailures()
            if !refused.isEmpty { return .answer(refused, into: outputs) }
            // Answers produced into the tracker are in flight again: wait for them too.
            guard outputs.inFlight == 0 else { break }
            defer { epochs[index].changelog = [] }
            return .writeChangelog(epoch: index, epochs[index].changelog)
        }
        // Offsets, from the front, once the changelog is delivered.
        guard let front = epochs.first, let written = front.changelogTracker, written.inFlight == 0 else {
            return .wait
        }
        epochs.removeFirst()
        var lost = front.changelogRefused
        let failures = written.takeFailures()
        for failure in failures { lost.insert(failure.partition ?? -1) }
        if !lost.isEmpty {
            // Their offsets wait for the rewrite, in this and every later epoch.
            for index in epochs.indices {
                for partition in lost { epochs[index].offsets[partition] = nil }
            }
        }
        return .commit(
            front.offsets.filter { !lost.contains($0.key) }, rewrite: lost,
            error: failures.last?.error.message ?? (lost.isEmpty ? nil : "refused before it was queued"))
    }

    /// Epoch `index`'s changelog records were produced with `tracker`; `refused`: partitions
    /// whose records librdkafka refused at once.
    mutating func changelogProduced(epoch index: Int, tracker: DeliveryTracker, refused: Set<Int32>) {
        epochs[index].changelogTracker = tracker
        epochs[index].changelogRefused = refused
    }
}

/// One commit interval's work on its way to being committed (at-least-once), in three steps
/// kept by ``CommitLedger``: its outputs (zone changes, finished workouts, dead letters) all
/// delivered or answered (produced again after a retriable error, or their input
/// dead-lettered as `output_rejected` after a permanent one); then its changelog records,
/// encoded at the seal so nothing applied later leaks into them; then its input offsets.
/// A crash anywhere replays the uncommitted records against the last delivered changelog
/// state, so outputs repeat (identical) rather than go missing (docs/explanation/guarantees.md).
struct CommitEpoch {
    /// The outputs produced while the epoch was open.
    let outputs: DeliveryTracker
    /// The next offset of each partition with progress, as applied at the seal.
    var offsets: [Int32: Int64]
    /// The changelog records of the state at the seal, produced once the outputs are settled.
    var changelog: [ChangelogWrite]
    /// The changelog records' tracker, once they are produced.
    var changelogTracker: DeliveryTracker?
    /// Partitions whose changelog records could not even be queued.
    var changelogRefused: Set<Int32> = []
}

/// One changelog record: a session's state, a finished marker or a tombstone (nil value).
struct ChangelogWrite {
    let partition: Int32
    let key: String
    let value: [UInt8]?
}

import CoreMetrics
import Foundation
import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// The state and loop of one worker thread. Lives on that thread's stack only.
struct WorkerLoop {
    let worker: PartitionWorker
    let context: WorkerContext
    var partitions: [Int32: PartitionState] = [:]
    var decoder: WorkoutEventDecoder
    var sink: OutputSink
    var stopped = false
    var failed = false
    var nextCommitMs: Int64
    var nextExpiryMs: Int64
    /// The wall clock read once per batch (idle timeouts need seconds, not nanoseconds).
    var batchWallMs: Int64 = 0
    /// Sealed commit epochs, oldest first, on their way to being committed (WorkerLoop+Commits).
    var sealedEpochs: [CommitEpoch] = []
    /// Partitions whose changelog lost a write: their next epoch rewrites all their state.
    var changelogRewrites: Set<Int32> = []
    /// Offsets whose commit failed (e.g. during a rebalance): retried with the next commit.
    var unacknowledgedOffsets: [Int32: Int64] = [:]
    /// Counted locally, published once per batch.
    var recordsCounted = 0
    var samplesCounted = 0
    /// Reads the changelog on assignment; created with the first one.
    var restorer: ChangelogRestorer?
    /// Exactly-once: this worker's transactional producer, with a transaction always open.
    let transactions: KafkaProducer?
    /// The live state of this worker's sessions as last published to the session directory
    /// (only when `publishesLiveSessions`).
    var liveViews: [String: LiveSessionEntry] = [:]
    let liveSessionsGauge: Gauge

    init(worker: PartitionWorker, context: WorkerContext) {
        self.worker = worker
        self.context = context
        decoder = WorkoutEventDecoder(maxMessageBytes: context.configuration.maxMessageBytes)
        var startFailure: String?
        var producer = context.producer
        if context.configuration.guarantee == .exactlyOnce {
            do {
                producer = try Self.transactionalProducer(worker: worker.index, context: context)
            } catch {
                startFailure = "starting the transactional producer failed: \(error)"
            }
        }
        transactions = producer !== context.producer ? producer : nil
        sink = OutputSink(
            producer: producer, topics: context.configuration.topics, tracker: DeliveryTracker(),
            metrics: context.metrics, budget: context.budget, logger: context.logger)
        liveSessionsGauge = context.metrics.liveSessionsGauge(worker: worker.index)
        let now = WallClock.nowMs()
        nextCommitMs = now + Int64(context.configuration.commitIntervalMs)
        nextExpiryMs = now + 1000
        if let startFailure { fail(startFailure) }
    }

    mutating func run() {
        while !stopped {
            handleCommands()
            if stopped { break }
            let profiles = context.profiles
            batchWallMs = WallClock.nowMs()
            // Poll briefly while outputs await delivery, so their offsets are committed promptly.
            let consumed = worker.queue.consumeBatch(timeoutMs: sealedEpochs.isEmpty ? 100 : 5) { record in
                process(record, profiles: profiles)
            }
            publishCounts()
            // Idle: commit what was applied now rather than at the next interval, so a
            // rebalance or a crash during a lull replays nothing.
            if consumed == 0 { sealEpoch() }
            let now = WallClock.nowMs()
            if now >= nextExpiryMs {
                expireIdleSessions(now: now)
                nextExpiryMs = now + 1000
            }
            if now >= nextCommitMs {
                sealEpoch()
                nextCommitMs = now + Int64(context.configuration.commitIntervalMs)
            }
            advanceEpochs(waiting: false)
            transactions?.pollDeliveryReports(timeoutMs: 0)
        }
    }

    mutating func handleCommands() {
        for command in worker.takeCommands() {
            switch command {
            case .assign(let assigned):
                for partition in assigned {
                    defer { context.metrics.restoring(-1) }
                    guard partitions[partition] == nil, !failed, let state = restoredState(partition) else { continue }
                    partitions[partition] = state
                    publishRestored(state.store.sessions, partition: partition)
                }
                updateLiveSessions()
            case .revoke(let revoked, let done):
                sealEpoch()
                advanceEpochs(waiting: true)
                for partition in revoked {
                    context.budget.release(partitions[partition]?.store.liveCount ?? 0)
                    partitions[partition] = nil
                    unacknowledgedOffsets[partition] = nil
                    changelogRewrites.remove(partition)
                }
                unpublish(partitions: Set(revoked))
                updateLiveSessions()
                done.signal()
            case .stop(let done):
                sealEpoch()
                advanceEpochs(waiting: true)
                context.budget.release(partitions.values.reduce(0) { $0 + $1.store.liveCount })
                partitions.removeAll()
                unpublish(partitions: nil)
                updateLiveSessions()
                stopped = true
                done.signal()
            }
        }
    }

    mutating func process(_ record: KafkaRecord, profiles: ProfileTable) {
        guard !failed, record.error == nil else { return }
        let partition = record.partition
        if partitions[partition] == nil { handleCommands() }
        // Not (or no longer) ours: the new owner reads it from the committed offset.
        guard partitions[partition] != nil else { return }
        let offset = record.offset
        // A record delivered again (same partition and offset) changes nothing.
        guard offset >= partitions[partition]!.nextOffset else { return }
        recordsCounted += 1
        sink.begin(partition: partition, offset: offset, key: record.key, value: record.value)
        let wallMs = batchWallMs
        switch decoder.decode(value: record.value, key: record.key) {
        case .success(let event):
            if partitions[partition]!.wasAppliedBeforeRestore(event.session, offset: offset) { break }
            if case .sample = event.body { samplesCounted += 1 }
            partitions[partition]!.store.handle(
                event, wallMs: wallMs, profiles: { profiles.profile(for: $0) }, sink: &sink)
        case .failure(let rejection):
            sink.rejected(rejection)
        }
        partitions[partition]!.nextOffset = offset + 1
    }

    mutating func publishCounts() {
        guard recordsCounted > 0 else { return }
        context.metrics.countRecords(recordsCounted, samples: samplesCounted)
        if sink.zoneChangeCount > 0 { context.metrics.countZoneChanges(sink.zoneChangeCount) }
        for partition in Array(partitions.keys) {
            context.metrics.countSampleQuality(partitions[partition]!.store.takeSampleQuality())
        }
        recordsCounted = 0
        samplesCounted = 0
        sink.zoneChangeCount = 0
    }

    mutating func expireIdleSessions(now: Int64) {
        for partition in Array(partitions.keys) {
            sink.beginWithoutRecord(partition: partition)
            partitions[partition]!.store.expire(wallMs: now, sink: &sink)
        }
        updateLiveSessions()
    }

    /// Publishes this worker's live-session count (the processor sums the workers').
    func updateLiveSessions() {
        let live = partitions.values.reduce(0) { $0 + $1.store.liveCount }
        worker.liveSessions.store(live, ordering: .relaxed)
        liveSessionsGauge.record(live)
    }

    /// A newly assigned partition's state, restored from the changelog; nil (and the worker
    /// stops) when the changelog cannot be read.
    mutating func restoredState(_ partition: Int32) -> PartitionState? {
        var state = PartitionState(settings: context.configuration.engine)
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            if restorer == nil { restorer = try ChangelogRestorer(configuration: context.configuration, logger: context.logger) }
            let restored = try restorer!.restore(partition: partition, isStopping: context.isStopping)
            for (id, entry) in restored.sessions {
                state.store.restore(entry.session)
                state.replaySkip[id] = entry.appliedThrough
            }
            for (id, entry) in restored.finished {
                state.store.restoreFinished(id, wallMs: entry.wallMs)
                state.replaySkip[id] = max(state.replaySkip[id] ?? -1, entry.appliedThrough)
            }
            state.replayHorizon = state.replaySkip.values.max() ?? -1
            context.budget.add(restored.sessions.count)
            let elapsedMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
            context.metrics.countRestore(sessions: restored.sessions.count, microseconds: Int(elapsedMs * 1000))
            if restored.recordsRead > 0 {
                context.logger.info("partition restored", metadata: [
                    "partition": "\(partition)", "sessions": "\(restored.sessions.count)",
                    "finished": "\(restored.finished.count)", "records": "\(restored.recordsRead)",
                    "ms": "\(Int(elapsedMs))"])
            }
            return state
        } catch {
            // Shutting down: the partition is left unapplied, nothing of it is committed.
            if context.isStopping() { return nil }
            fail("restoring partition \(partition) from \(context.configuration.topics.changelog) failed: \(error)")
            return nil
        }
    }

    mutating func fail(_ reason: String) {
        guard !failed else { return }
        failed = true
        context.logger.error("worker stopping", metadata: ["worker": "\(worker.index)", "reason": "\(reason)"])
        context.onFatal(reason)
    }
}

/// Wall-clock milliseconds, for idle timeouts and commit intervals.
enum WallClock {
    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

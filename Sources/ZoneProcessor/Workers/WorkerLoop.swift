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
    /// Counted locally, published once per batch.
    var recordsCounted = 0
    var samplesCounted = 0

    init(worker: PartitionWorker, context: WorkerContext) {
        self.worker = worker
        self.context = context
        decoder = WorkoutEventDecoder(maxMessageBytes: context.configuration.maxMessageBytes)
        sink = OutputSink(
            producer: context.producer, topics: context.configuration.topics, tracker: worker.tracker,
            metrics: context.metrics)
        sink.current.topic = context.configuration.topics.workoutEvents
        let now = WallClock.nowMs()
        nextCommitMs = now + Int64(context.configuration.commitIntervalMs)
        nextExpiryMs = now + 1000
    }

    mutating func run() {
        while !stopped {
            handleCommands()
            if stopped { break }
            let profiles = context.profiles
            batchWallMs = WallClock.nowMs()
            worker.queue.consumeBatch(timeoutMs: 100) { record in
                process(record, profiles: profiles)
            }
            publishCounts()
            let now = WallClock.nowMs()
            if now >= nextExpiryMs {
                expireIdleSessions(now: now)
                nextExpiryMs = now + 1000
            }
            if now >= nextCommitMs {
                commit(Array(partitions.keys))
                nextCommitMs = now + Int64(context.configuration.commitIntervalMs)
            }
        }
    }

    mutating func handleCommands() {
        for command in worker.takeCommands() {
            switch command {
            case .assign(let assigned):
                for partition in assigned where partitions[partition] == nil {
                    partitions[partition] = PartitionState(settings: context.configuration.engine)
                }
            case .revoke(let revoked, let done):
                commit(revoked.filter { partitions[$0] != nil })
                for partition in revoked { partitions[partition] = nil }
                updateLiveSessions()
                done.signal()
            case .stop(let done):
                commit(Array(partitions.keys))
                partitions.removeAll()
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
        sink.current.partition = partition
        sink.current.offset = offset
        sink.current.key = record.key
        sink.current.value = record.value
        let wallMs = batchWallMs
        switch decoder.decode(value: record.value, key: record.key) {
        case .success(let event):
            if case .sample = event.body { samplesCounted += 1 }
            partitions[partition]!.store.handle(
                event, wallMs: wallMs, profiles: { profiles.profile(for: $0) }, sink: &sink)
        case .failure(let rejection):
            sink.rejected(rejection)
        }
        partitions[partition]!.nextOffset = offset + 1
        if let failure = sink.failure { fail("producing outputs failed: \(failure)") }
    }

    mutating func publishCounts() {
        if recordsCounted > 0 { context.metrics.recordsIn.add(recordsCounted, ordering: .relaxed) }
        if samplesCounted > 0 { context.metrics.samplesIn.add(samplesCounted, ordering: .relaxed) }
        if sink.zoneChangeCount > 0 { context.metrics.zoneChanges.add(sink.zoneChangeCount, ordering: .relaxed) }
        recordsCounted = 0
        samplesCounted = 0
        sink.zoneChangeCount = 0
    }

    mutating func expireIdleSessions(now: Int64) {
        for partition in Array(partitions.keys) {
            partitions[partition]!.store.expire(wallMs: now, sink: &sink)
        }
        updateLiveSessions()
    }

    /// Publishes this worker's live-session count (the processor sums the workers').
    func updateLiveSessions() {
        worker.liveSessions.store(partitions.values.reduce(0) { $0 + $1.store.liveCount }, ordering: .relaxed)
    }

    /// Commits the offsets of `owned` partitions once every output produced so far is delivered.
    mutating func commit(_ owned: [Int32]) {
        guard !failed else { return }
        let pending = owned.filter { partitions[$0]?.hasUncommittedProgress == true }
        guard !pending.isEmpty else { return }
        let deadline = WallClock.nowMs() + 60_000
        while worker.tracker.inFlight > 0 {
            if WallClock.nowMs() > deadline { return fail("outputs not delivered within 60 s; not committing") }
            Thread.sleep(forTimeInterval: 0.001)
        }
        if worker.tracker.failedCount > 0 {
            return fail("an output could not be delivered: \(worker.tracker.lastError ?? "unknown")")
        }
        let topic = context.configuration.topics.workoutEvents
        let offsets = pending.map { TopicPartition(topic: topic, partition: $0, offset: partitions[$0]!.nextOffset) }
        do {
            try context.consumer.commit(offsets)
            for partition in pending { partitions[partition]!.committedOffset = partitions[partition]!.nextOffset }
            context.metrics.commits.add(1, ordering: .relaxed)
        } catch {
            // Not fatal: the offsets are committed with the next cycle, or reprocessed.
            context.logger.warning("commit failed", metadata: ["error": "\(error)"])
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

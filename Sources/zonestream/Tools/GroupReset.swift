import Foundation
import Logging
import Synchronization
import ZoneKafka

/// Resets consumer groups of ZoneStream as Kafka Streams' application reset tool does: every
/// group is checked through the admin API (its coordinator's description) before anything
/// changes, and refused while it has a member, without joining it: a tool that joined a live
/// group would make every instance give up its partitions and take them back, and on a
/// one-partition input could be given the only partition and believe the group empty. The
/// committed input offsets are then set from outside the group, as the coordinator allows for
/// an empty group.
///
/// librdkafka's mock cluster (the embedded broker) cannot describe groups, nor take a commit
/// from outside a group it knows: there the tool joins each group to learn whether it is the
/// only member, as a one-instance embedded run can afford.
struct GroupReset {
    /// One partition's committed offset before and after.
    struct Change {
        let partition: TopicPartition
        let before: Int64
    }

    /// A group to reset, the topic it reads and where it starts again.
    struct Member {
        let group: String
        let topic: String
        let target: Target
    }

    let kafka: KafkaConfiguration
    /// The group member properties ZoneStream's instances use (session timeout, heartbeats),
    /// for joining a group on the embedded broker.
    let memberProperties: [String: String]
    let logger: Logger
    /// The operator's word that every instance of the group is stopped (`--group-stopped`):
    /// on the embedded broker, which cannot describe groups, the tool acts only with it.
    var groupStopped = false

    /// Where the group starts reading again.
    enum Target {
        case earliest
        case latest
        case time(Int64)
    }

    /// Checks that none of `members`' groups has a member, then sets each one's committed
    /// offsets to its target (unless `dryRun`); returns what changed, by member. A refusal
    /// changes nothing.
    func reset(_ members: [Member], dryRun: Bool) throws -> [[Change]] {
        let consumers = try consumers(for: members)
        defer { for consumer in consumers { consumer.close() } }
        var plans: [(before: [TopicPartition], after: [TopicPartition])] = []
        for (member, consumer) in zip(members, consumers) {
            let partitions = (0..<Int32(try consumer.partitionCount(topic: member.topic))).map {
                TopicPartition(topic: member.topic, partition: $0)
            }
            plans.append((try consumer.committed(partitions), try targetOffsets(partitions, member.target, consumer)))
        }
        if !dryRun {
            for (plan, consumer) in zip(plans, consumers) { try consumer.commit(plan.after) }
        }
        return plans.map { plan in zip(plan.before, plan.after).map { Change(partition: $1, before: $0.offset) } }
    }

    /// A consumer in each member's group that may commit its offsets; throws if any group has
    /// a member.
    private func consumers(for members: [Member]) throws -> [KafkaConsumer] {
        let producer = try KafkaProducer(configuration: kafka)
        // Asked of the mock, a description is never answered (and its client cannot close); and
        // joining a group to find out whether it has members takes partitions from a live
        // instance. There the tool acts only on the operator's word that the group is stopped.
        if TopicAdmin.isMockCluster(using: producer) {
            guard groupStopped else {
                throw CommandFailure(
                    description:
                        "the embedded broker cannot say whether group \(members[0].group) has members, and joining it to find out would take partitions from a live instance: stop every instance of the group, then run again with --group-stopped; nothing was changed"
                )
            }
            return try joinAlone(members)
        }
        let descriptions = try GroupAdmin.describe(members.map(\.group), using: producer)
        if let busy = descriptions.first(where: { !$0.isEmpty }) {
            throw CommandFailure(
                description:
                    "group \(busy.group) has other members (\(busy.members) in state \(busy.state)): stop every instance of the group first; nothing was changed"
            )
        }
        return try members.map { member in
            try KafkaConsumer(
                configuration: kafka, groupID: member.group, logger: logger,
                properties: ["enable.auto.commit": "false"])
        }
    }

    /// The embedded broker: joins every group, each checked to give this tool all of its
    /// topic's partitions, before anything changes.
    private func joinAlone(_ members: [Member]) throws -> [KafkaConsumer] {
        var joined: [KafkaConsumer] = []
        do {
            for member in members { joined.append(try join(member)) }
        } catch {
            for consumer in joined { consumer.close() }
            throw error
        }
        return joined
    }

    private func join(_ member: Member) throws -> KafkaConsumer {
        let consumer = try KafkaConsumer(
            configuration: kafka, groupID: member.group, logger: logger,
            properties: memberProperties.merging(["enable.auto.commit": "false"]) { _, new in new })
        do {
            let partitionCount = try consumer.partitionCount(topic: member.topic)
            let watch = AssignmentWatch()
            try consumer.subscribe([member.topic], listener: watch)
            let deadline = Date().addingTimeInterval(60)
            while watch.assigned == nil && Date() < deadline { consumer.poll(timeoutMs: 100) }
            guard let assigned = watch.assigned else {
                throw CommandFailure(description: "joining group \(member.group) took over 60 s; is the broker busy?")
            }
            guard assigned.count == partitionCount else {
                throw CommandFailure(
                    description:
                        "group \(member.group) has other members (this tool was given \(assigned.count) of \(partitionCount) partitions of \(member.topic)): stop every instance of the group first; nothing was changed"
                )
            }
            return consumer
        } catch {
            consumer.close()
            throw error
        }
    }

    private func targetOffsets(_ partitions: [TopicPartition], _ target: Target, _ consumer: KafkaConsumer) throws
        -> [TopicPartition]
    {
        switch target {
        case .earliest, .latest:
            return try partitions.map { partition in
                let marks = try consumer.watermarks(partition)
                var offset = partition
                offset.offset = { if case .earliest = target { marks.low } else { marks.high } }()
                return offset
            }
        case .time(let ms):
            return try consumer.offsets(
                forTimes: partitions.map { TopicPartition(topic: $0.topic, partition: $0.partition, offset: ms) })
        }
    }

    /// Writes a tombstone for every key that holds a value in `topic` (a compacted state
    /// changelog), so a restore finds nothing; returns how many (none written when `dryRun`).
    func clearState(topic: String, dryRun: Bool) throws -> Int {
        let reader = try OutputReader(kafka: kafka, logger: logger, isolation: "read_committed", topics: [topic])
        let ends = try reader.endOffsets()
        var held: [Int32: Set<[UInt8]>] = [:]
        let complete = reader.readUntil(ends, deadline: Date().addingTimeInterval(300)) { record in
            guard let key = record.key.map(Array.init) else { return }
            if record.value == nil {
                held[record.partition, default: []].remove(key)
            } else {
                held[record.partition, default: []].insert(key)
            }
        }
        reader.close()
        guard complete else { throw CommandFailure(description: "reading \(topic) to its end took over 300 s") }
        let count = held.values.reduce(0) { $0 + $1.count }
        guard !dryRun, count > 0 else { return count }
        let producer = try KafkaProducer(configuration: kafka)
        let tracker = DeliveryTracker()
        for (partition, keys) in held {
            for key in keys {
                try producer.produce(topic: topic, key: key, value: nil, tracker: tracker, partition: partition)
            }
        }
        try producer.flush(timeoutMs: 60_000)
        guard tracker.failedCount == 0 else {
            throw CommandFailure(
                description: "\(tracker.failedCount) tombstones refused by \(topic): \(tracker.lastError ?? "")")
        }
        return count
    }
}

/// Records the partitions the group gave the reset tool.
private final class AssignmentWatch: RebalanceListener, Sendable {
    private let partitions = Mutex<[TopicPartition]?>(nil)

    var assigned: [TopicPartition]? { partitions.withLock { $0 } }

    func assigned(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        self.partitions.withLock { $0 = partitions }
    }

    func revoked(_ partitions: [TopicPartition], consumer: KafkaConsumer) {
        self.partitions.withLock { $0 = nil }
    }
}

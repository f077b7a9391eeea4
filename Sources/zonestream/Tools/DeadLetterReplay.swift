import Foundation
import Logging
import ZoneKafka

/// Re-produces dead-lettered inputs (their original key and bytes) to the topic they came
/// from, once their cause is fixed. Each replayed record carries the header
/// ``header`` (`<dead-letter topic>/<partition>/<offset>`), so a replayed record that fails
/// again, and is dead-lettered again, is recognised and not replayed a second time.
struct DeadLetterReplay {
    static let header = "zonestream-replay-of"

    /// One dead letter worth replaying: where it is, and what it holds.
    struct Candidate {
        let location: String
        let sourceTopic: String
        let sourcePartition: Int32
        let sourceOffset: Int64
        let key: [UInt8]?
        let value: [UInt8]
    }

    /// What a run found and did.
    struct Outcome {
        var matching = 0
        var replayed: [Candidate] = []
        var failedAgain = 0
        var truncated = 0
        var otherTopic = 0
    }

    let kafka: KafkaConfiguration
    let deadLetterTopic: String
    /// The topics ZoneStream consumes: a dead letter from any other is not replayed.
    let inputTopics: Set<String>
    let logger: Logger

    /// The dead letters with `reason` whose record time is within `window`.
    func candidates(reason: String, window: ClosedRange<Int64>, outcome: inout Outcome) throws -> [Candidate] {
        let reader = try OutputReader(
            kafka: kafka, logger: logger, isolation: "read_committed", topics: [deadLetterTopic])
        defer { reader.close() }
        let ends = try reader.endOffsets()
        var found: [Candidate] = []
        let complete = reader.readUntil(ends, deadline: Date().addingTimeInterval(120)) { record in
            guard window.contains(record.timestampMs), let value = record.value,
                let letter = try? JSONSerialization.jsonObject(with: Data(value)) as? [String: Any],
                letter["reason"] as? String == reason
            else { return }
            outcome.matching += 1
            guard letter["truncated"] as? Bool != true,
                let original = (letter["value_base64"] as? String).flatMap({ Data(base64Encoded: $0) })
            else { return outcome.truncated += 1 }
            guard let topic = letter["topic"] as? String, inputTopics.contains(topic),
                let partition = letter["partition"] as? Int, let offset = letter["offset"] as? Int
            else { return outcome.otherTopic += 1 }
            found.append(
                Candidate(
                    location: "\(deadLetterTopic)/\(record.partition)/\(record.offset)", sourceTopic: topic,
                    sourcePartition: Int32(partition), sourceOffset: Int64(offset),
                    key: (letter["key_base64"] as? String).flatMap { Data(base64Encoded: $0) }.map { Array($0) },
                    value: Array(original)))
        }
        guard complete else {
            throw CommandFailure(description: "reading \(deadLetterTopic) to its end took over 120 s")
        }
        return found
    }

    /// Whether the input record a dead letter came from was itself a replay (it carries
    /// ``header``). A record gone from the input topic (retention) counts as not replayed.
    func wasReplayed(_ candidate: Candidate) throws -> Bool {
        let consumer = try KafkaConsumer(
            configuration: kafka, groupID: nil, logger: logger, properties: ["isolation.level": "read_uncommitted"])
        defer { consumer.close() }
        try consumer.assign([
            TopicPartition(
                topic: candidate.sourceTopic, partition: candidate.sourcePartition, offset: candidate.sourceOffset)
        ])
        let deadline = Date().addingTimeInterval(10)
        var replayed: Bool?
        while replayed == nil && Date() < deadline {
            consumer.poll(timeoutMs: 100) { record in
                guard record.error == nil, record.offset == candidate.sourceOffset else { return }
                replayed = record.header(named: Self.header) != nil
            }
        }
        return replayed ?? false
    }

    /// Produces every candidate back to its topic, marked, and waits for each delivery.
    func replay(_ candidates: [Candidate]) throws {
        let producer = try KafkaProducer(configuration: kafka)
        let tracker = DeliveryTracker()
        for candidate in candidates {
            try producer.produce(
                topic: candidate.sourceTopic, key: candidate.key, value: candidate.value,
                tracker: tracker, header: KafkaHeader(name: Self.header, value: Array(candidate.location.utf8)))
        }
        try producer.flush(timeoutMs: 30_000)
        if tracker.failedCount > 0 {
            throw CommandFailure(
                description:
                    "\(tracker.failedCount) of \(candidates.count) replayed records were refused: \(tracker.lastError ?? "")"
            )
        }
    }
}

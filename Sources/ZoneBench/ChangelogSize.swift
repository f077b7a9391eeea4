import Foundation
import Logging
import ZoneKafka

/// What a session costs on its changelog topic: the mean size of the state records there (in
/// a memory run no session finishes, so every record is a session's snapshot).
enum ChangelogSize {
    /// The mean value size of the records of `topic` up to its present end; nil when it holds
    /// none or cannot be read within a minute.
    static func meanSessionRecordBytes(bootstrap: String, topic: String) -> Double? {
        var logger = Logger(label: "bench-changelog-size")
        logger.logLevel = .warning
        guard
            let consumer = try? KafkaConsumer(
                configuration: KafkaConfiguration(bootstrapServers: bootstrap, clientID: "zonestream-bench-changelog"),
                groupID: nil, logger: logger),
            let count = try? consumer.partitionCount(topic: topic)
        else { return nil }
        defer { consumer.close() }
        var remaining: [Int32: Int64] = [:]
        for partition in 0..<Int32(count) {
            let high = (try? consumer.watermarks(TopicPartition(topic: topic, partition: partition)).high) ?? 0
            if high > 0 { remaining[partition] = high }
        }
        guard !remaining.isEmpty,
            (try? consumer.assign(
                remaining.keys.map { TopicPartition(topic: topic, partition: $0, offset: TopicPartition.beginning) }))
                != nil
        else { return nil }
        var (records, bytes) = (0, 0)
        let deadline = Date().addingTimeInterval(60)
        while !remaining.isEmpty && Date() < deadline {
            consumer.poll(timeoutMs: 100) { record in
                guard record.error == nil else { return }
                if let value = record.value {
                    records += 1
                    bytes += value.count
                }
                if let end = remaining[record.partition], record.offset + 1 >= end { remaining[record.partition] = nil }
            }
        }
        return records > 0 ? Double(bytes) / Double(records) : nil
    }
}

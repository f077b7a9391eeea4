import CRdKafka
import Logging
import NIOConcurrencyHelpers
import Synchronization

extension KafkaConsumer {
    /// For each of `partitions`, whose offsets hold timestamps (ms since the epoch), the
    /// earliest offset whose record time is at or after it; the partition's end when none is.
    public func offsets(forTimes partitions: [TopicPartition], timeoutMs: Int32 = 10_000) throws(KafkaError)
        -> [TopicPartition]
    {
        let list = try RDKafkaTopicPartitionList(partitions)
        try KafkaError.check(
            rd_kafka_offsets_for_times(client.handle, list.pointer, timeoutMs), "looking up offsets by time")
        var found = list.partitions
        for index in found.indices where found[index].offset < 0 {
            found[index].offset = try watermarks(found[index]).high
        }
        return found
    }
}

import CRdKafka
import Logging
import NIOConcurrencyHelpers
import Synchronization

/// librdkafka's rebalance callback, carried out on the polling thread: the listener told of
/// each assignment and revocation, eager or cooperative.
extension KafkaConsumer {
    /// Applies a rebalance after telling the listener. With the cooperative protocol
    /// (`partition.assignment.strategy=cooperative-sticky`) the lists hold only the partitions
    /// that move, and are added to or taken from the assignment; with the eager protocols they
    /// hold the whole assignment, given or taken back.
    func rebalance(
        _ error: rd_kafka_resp_err_t, _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>
    ) {
        let partitions = RDKafkaTopicPartitionList.read(list)
        let listener = listener.withLockedValue { $0 }
        commitsHeld.store(false, ordering: .releasing)
        let cooperative = rebalanceProtocol == "cooperative"
        let failure: KafkaError?
        switch error {
        case RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS:
            logger.debug("partitions assigned", metadata: ["partitions": "\(partitions)"])
            listener?.assigned(partitions, consumer: self)
            failure =
                cooperative
                ? KafkaError(taking: rd_kafka_incremental_assign(client.handle, list), operation: "assigning")
                : KafkaError(result: rd_kafka_assign(client.handle, list), operation: "assigning")
        case RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS:
            if rd_kafka_assignment_lost(client.handle) != 0 {
                // The group went on without this member (a commit or sync of a generation it had
                // replaced, a missed session timeout): what it held may already be someone else's.
                logger.warning(
                    "assignment lost; its partitions are given up", metadata: ["partitions": "\(partitions)"])
            } else {
                logger.debug("partitions revoked", metadata: ["partitions": "\(partitions)"])
            }
            listener?.revoked(partitions, consumer: self)
            failure = unassign(list, cooperative: cooperative)
        default:
            logger.error("rebalance failed", metadata: ["error": "\(KafkaError(error, operation: "rebalance"))"])
            failure = unassign(list, cooperative: cooperative)
        }
        // A failed assign leaves the group's view and ours apart: say so loudly; librdkafka
        // rejoins the group on its next poll.
        if let failure {
            logger.error(
                "applying a rebalance failed",
                metadata: ["error": "\(failure)", "partitions": .stringConvertible(partitions.count)])
        }
    }

    private func unassign(_ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>, cooperative: Bool)
        -> KafkaError?
    {
        cooperative
            ? KafkaError(taking: rd_kafka_incremental_unassign(client.handle, list), operation: "unassigning")
            : KafkaError(result: rd_kafka_assign(client.handle, nil), operation: "unassigning")
    }
}

import Foundation
import Logging
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// A stage partition's table, read back from its changelog when the group assigns it.
extension KeyedStage {
    /// The states of `partition`, read from the changelog's start to the end it had when the
    /// read began: the latest record per key, a null value removing the key.
    func restore(partition: Int32) throws(ProcessorError) -> [String: Aggregation.State] {
        var states: [String: Aggregation.State] = [:]
        try restorer.read(
            partition: partition, timeoutMs: 300_000,
            isStopping: { [self] in
                !running.load(ordering: .acquiring)
            }
        ) { record in
            guard let key = record.key.map({ String(decoding: $0, as: UTF8.self) }) else { return }
            guard let value = record.value else {
                states[key] = nil
                return
            }
            do {
                let restored = try aggregation.restore(value)
                guard restored.key == key else {
                    logger.error(
                        "stage changelog record refused: its key is not its state's",
                        metadata: [
                            "stage": "\(aggregation.role.name)", "partition": .stringConvertible(record.partition),
                            "offset": .stringConvertible(record.offset),
                        ])
                    return
                }
                states[key] = restored.state
            } catch {
                metrics.countChangelogRecordRefused()
                logger.error(
                    "stage changelog record refused",
                    metadata: [
                        "stage": "\(aggregation.role.name)", "partition": .stringConvertible(record.partition),
                        "offset": .stringConvertible(record.offset), "error": "\(error)",
                    ])
            }
        }
        return states
    }
}

/// Why the processor, or one of its workers, could not go on: what failed, where (worker,
/// partition) and the error underneath. Produce failures are not among them: refused outputs
/// are answered (retried or dead-lettered as `output_rejected`) and never stop a worker.
public struct ProcessorError: Error, CustomStringConvertible, Sendable {
    public enum Operation: String, Sendable {
        case startingTransactions = "starting the transactional producer"
        case restoring = "restoring a partition from the changelog"
        case stoppedWhileRestoring = "stopping while restoring a partition"
        case committingTransaction = "committing a transaction"
        case writingChangelog = "writing the changelog in a transaction"
        case consuming = "consuming from the group"
        /// A changelog record another application wrote: a topic layout to fix, never a
        /// partition to skip (the `zonestream` command exits 78, as for a refused setting).
        case foreignState = "restoring a partition from the changelog: the record belongs to another application"
    }

    /// Whether the failure is a layout an operator must fix, not a fault of the run.
    public var isRefusedLayout: Bool { operation == .foreignState }

    public let operation: Operation
    public let worker: Int?
    public let partition: Int32?
    /// What went wrong underneath (a librdkafka error, a timeout), as text.
    public let reason: String

    public init(_ operation: Operation, worker: Int? = nil, partition: Int32? = nil, reason: String) {
        self.operation = operation
        self.worker = worker
        self.partition = partition
        self.reason = reason
    }

    /// The same failure, with the worker that met it.
    func on(worker index: Int) -> ProcessorError {
        ProcessorError(operation, worker: index, partition: partition, reason: reason)
    }

    public var description: String {
        var place: [String] = []
        if let worker { place.append("worker \(worker)") }
        if let partition { place.append("partition \(partition)") }
        let prefix = place.isEmpty ? "" : place.joined(separator: ", ") + ": "
        return "\(prefix)\(operation.rawValue) failed: \(reason)"
    }
}

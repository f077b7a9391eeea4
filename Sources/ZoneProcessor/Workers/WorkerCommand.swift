import Dispatch

/// Control messages from the rebalance thread to a worker. Never per record.
enum WorkerCommand: @unchecked Sendable {
    // @unchecked: DispatchSemaphore is thread-safe; it is only signalled by the worker.
    case assign([Int32])
    /// Commit what was applied for these partitions, drop their sessions, then signal.
    case revoke([Int32], done: DispatchSemaphore)
    /// Commit everything, then signal and exit.
    case stop(done: DispatchSemaphore)
}

import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// A named thread that owns some partitions of `workout-events` and every session in them.
///
/// Shared-nothing: the sessions, the decoder and the output producer live on this thread only;
/// other threads talk to it through the mailbox (assignments, revocations, stop), never per
/// record. Records arrive in its own librdkafka queue, into which its partitions are forwarded.
final class PartitionWorker: Sendable {
    let index: Int
    let queue: KafkaQueue
    /// This worker's live sessions, refreshed every second and on revocation.
    let liveSessions = Atomic<Int>(0)
    private let mailbox = NIOLockedValueBox<[WorkerCommand]>([])
    private let context: WorkerContext

    init(index: Int, queue: KafkaQueue, context: WorkerContext) {
        self.index = index
        self.queue = queue
        self.context = context
    }

    func post(_ command: WorkerCommand) { mailbox.withLockedValue { $0.append(command) } }

    private let thread = NIOLockedValueBox<JoinableThread?>(nil)

    func start() {
        let thread = JoinableThread(name: "zs-worker-\(index)") { [self] in
            var loop = WorkerLoop(worker: self, context: context)
            loop.run()
        }
        self.thread.withLockedValue { $0 = thread }
    }

    /// Waits for the worker's thread to exit (after a `.stop` command).
    func join() { thread.withLockedValue { $0 }?.join() }

    /// Whether commands wait to be taken.
    var hasCommands: Bool { mailbox.withLockedValue { !$0.isEmpty } }

    func takeCommands() -> [WorkerCommand] {
        mailbox.withLockedValue { commands in
            defer { commands.removeAll() }
            return commands
        }
    }
}

/// What every worker shares: read-only configuration and thread-safe handles.
struct WorkerContext: Sendable {
    let configuration: ProcessorConfiguration
    let consumer: KafkaConsumer
    let producer: KafkaProducer
    let profiles: ProfileTable
    let classPlans: ClassPlanTable
    /// How far the tables cover the input, for reading them as of each session's first event.
    let tableCoverage: TableCoverage
    let metrics: ProcessorMetrics
    /// Where workers publish their sessions' live state for queries.
    let directory: LiveSessionDirectory
    /// Keeps the warm standbys a newly assigned partition starts from.
    let changelogFollower: ChangelogFollower
    /// Reads an input again for the dead letter of an output the broker refused.
    let inputs: InputRecordFetcher
    /// The instance's cap on live sessions, shared by its workers.
    let budget: SessionBudget
    let logger: Logger
    /// Whether the processor is shutting down (long operations such as a restore give up).
    let isStopping: @Sendable () -> Bool
    /// Called once if the worker cannot go on (a produce or commit failed): the processor stops.
    let onFatal: @Sendable (ProcessorError) -> Void
}

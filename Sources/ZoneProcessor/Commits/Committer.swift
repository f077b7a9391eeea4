import ZoneKafka

/// How each consumer of the processor (a worker, the person stage, the class stage) commits
/// what it applied: the outputs it produced, the changelog records of the state they came
/// from, and its input offsets, so that a crash replays work rather than loses it
/// (docs/explanation/guarantees.md). One protocol for the two guarantees:
/// ``AtLeastOnceCommitter`` (three delivered steps kept by ``CommitLedger``, carried out
/// without waiting unless asked) and ``TransactionCommitter`` (one Kafka transaction a seal).
protocol Committer {
    /// Seals the work applied since the last seal (`epoch`: its outputs' tracker, the next
    /// offset of each partition with progress, its changelog records). Throws when the
    /// consumer cannot go on (a transaction failed); the caller then stops.
    mutating func seal(_ epoch: CommitEpoch) throws(ProcessorError) -> CommitProgress
    /// Carries out what can be done now; `waiting`: until everything sealed is committed (a
    /// revocation, a stop, a stage's batch), for at most ``waitLimitMs``.
    mutating func advance(waiting: Bool) -> CommitProgress
    /// Forgets what a revoked partition had left to commit: its next owner replays it.
    mutating func forget(_ partition: Int32)
    /// Whether nothing sealed waits to be committed.
    var isSettled: Bool { get }
}

/// The longest a waiting ``Committer/advance(waiting:)`` waits; what is left then is replayed
/// by the partitions' next owner.
let waitLimitMs: Int64 = 60_000

/// What a ``Committer`` call did, for its caller's state and metrics.
struct CommitProgress {
    /// Whether the epoch was sealed: its tracker is the committer's now, and its offsets count
    /// as committed. False when it held nothing to commit.
    var sealed = false
    /// Changelog records produced.
    var changelogRecords = 0
    /// How long each commit that landed took.
    var commitNanoseconds: [UInt64] = []
    /// Partitions whose changelog lost a write: their whole state must be written again.
    var rewrites: Set<Int32> = []

    mutating func add(_ other: CommitProgress) {
        sealed = sealed || other.sealed
        changelogRecords += other.changelogRecords
        commitNanoseconds += other.commitNanoseconds
        rewrites.formUnion(other.rewrites)
    }
}

/// Where a committer writes: its consumer's input topic, its changelog topic and the header
/// that names the application on each changelog record.
struct CommitTopics {
    let input: String
    let changelog: String
    let owner: KafkaHeader
}

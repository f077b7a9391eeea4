import Foundation
import ZoneEngine

/// What one use of the keyed-aggregation stage (``KeyedStage``) counts: the person stage
/// (each person's last 7 and 28 days) and the class stage (each class's day). The stage owns
/// the Kafka side (its group, restore, outputs, commits and transactions, the cap); this says
/// how a repartition record is read, what a key's state is, how a record counts into it and
/// what summary that produces.
///
/// One value per stage, used on the stage's thread only (it may hold reusable codecs).
protocol StageAggregation: SendableMetatype {
    associatedtype Item
    associatedtype State: Sendable

    /// The stage's name: its consumer group is `<group_id>.<role>`, its thread `zs-<role>`, its
    /// transactional id `<prefix>-<instance>-<role>`.
    var role: String { get }
    /// Which of the processor's topics the stage reads and keeps its state in.
    var input: OutputContext.InputTopic { get }
    var changelog: OutputContext.InputTopic { get }
    /// The stage's output topic.
    func outputTopic(in topics: Topics) -> String

    /// The most keys the stage holds over its partitions, and the dead-letter reason past it.
    var capacity: Int { get }
    var limitReason: DeadLetterReason { get }
    /// Says past the cap, to a person reading the log or the dead letter: "persons", "classes".
    var keysName: String { get }
    /// Why an idle key may be removed to make room, for the dead letter's detail.
    var idleRule: String { get }

    /// A repartition record's key and item, or why it cannot be counted.
    mutating func decode(value: UnsafeRawBufferPointer?, key: UnsafeRawBufferPointer?)
        -> Result<(key: String, item: Item), Rejection>
    /// A new key's empty state.
    func emptyState(key: String) -> State
    /// Counts `item` into `state`; the output it causes (key and value), if any.
    mutating func count(_ item: Item, into state: inout State) -> (key: String, value: [UInt8])?
    /// A key's state as its changelog record, and read back (with the key it belongs to).
    func snapshot(_ state: State) -> [UInt8]
    func restore(_ bytes: UnsafeRawBufferPointer) throws(SnapshotError) -> (key: String, state: State)
    /// Whether a key may be removed to make room at the cap.
    func isIdle(_ state: State, now: Int64) -> Bool
    /// Records how many keys the stage holds, and counts one refused past the cap.
    func recordKeys(_ count: Int, in metrics: ProcessorMetrics)
    func countRefused(in metrics: ProcessorMetrics)
    /// The stage's own figures among `metrics` (summaries, restores, deliveries, lag).
    func figures(in metrics: ProcessorMetrics) -> StageMetrics
}

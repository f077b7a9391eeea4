import Foundation
import ZoneEngine

/// What one use of the keyed-aggregation stage (``KeyedStage``) counts: the person stage
/// (each person's last 7 and 28 days) and the class stage (each class's day). The stage owns
/// the Kafka side (its group, restore, outputs, commits and transactions, the cap); this says
/// how a repartition record is read, what a key's state is, how a record counts into it and
/// what summary that produces.
///
/// Only what differs between the two in what they count; who the stage is (name, topics, cap,
/// wording, figures) is its ``StageRole``. One value per stage, used on the stage's thread only
/// (it may hold reusable codecs).
protocol StageAggregation: SendableMetatype {
    associatedtype Item
    associatedtype State: Sendable

    /// Who the stage is: its name, topics, cap, wording and figures.
    var role: StageRole { get }

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
}

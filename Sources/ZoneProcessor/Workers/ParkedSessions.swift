import Dispatch

/// One partition's records held back until the tables are read as of their session's start
/// (contract, section 1), in the partition's order. Only the sessions whose start waits are
/// held: the partition's other sessions go on, and its commits stay below the first record held
/// (``firstOffset``), so a crash or a rebalance replays what was held.
struct ParkedSessions {
    /// A record held back, copied out of librdkafka's buffer.
    struct Record {
        let session: String
        let offset: Int64
        let key: [UInt8]?
        let value: [UInt8]?
        let timestampMs: Int64
        /// The wall clock when the worker read it (it bounds the event's time, section 3).
        let readAtMs: Int64

        var bytes: Int { (key?.count ?? 0) + (value?.count ?? 0) + 64 }
    }

    /// Why a session is held: its first record, and the offset the tables must cover.
    struct Wait {
        let firstOffset: Int64
        /// Records of the partition below this must be covered (``TableCoverage``).
        let coveredBelow: Int64
        let sinceNs: UInt64
    }

    private(set) var records: [Record] = []
    private(set) var waits: [String: Wait] = [:]
    private(set) var bytes = 0

    var isEmpty: Bool { waits.isEmpty }

    func isHolding(_ session: String) -> Bool { waits[session] != nil }

    /// The first record held, below which the partition's offsets may be committed.
    var firstOffset: Int64? { records.first?.offset }

    /// The first record held of `session`: its state reflects nothing from there on.
    func firstOffset(of session: String) -> Int64? { waits[session]?.firstOffset }

    /// Holds `record`, the first of its session to be held, until the coverage reaches past it.
    mutating func hold(first record: Record, nowNs: UInt64) {
        waits[record.session] = Wait(firstOffset: record.offset, coveredBelow: record.offset + 1, sinceNs: nowNs)
        append(record)
    }

    /// Holds a later record of a session held already, behind its earlier ones.
    mutating func append(_ record: Record) {
        records.append(record)
        bytes += record.bytes
    }

    /// Takes every held record of the sessions `mayGo` lets go, in the partition's order, with
    /// the waits they were held for.
    mutating func release(where mayGo: (Wait) -> Bool) -> (records: [Record], waits: [Wait]) {
        let going = waits.filter { mayGo($0.value) }
        guard !going.isEmpty else { return ([], []) }
        for session in going.keys { waits[session] = nil }
        var released: [Record] = []
        var kept: [Record] = []
        for record in records {
            if going[record.session] != nil { released.append(record) } else { kept.append(record) }
        }
        records = kept
        bytes = kept.reduce(0) { $0 + $1.bytes }
        return (released, Array(going.values))
    }
}

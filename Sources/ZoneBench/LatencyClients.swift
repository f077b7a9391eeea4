/// The clients a latency run measures: ZoneStream and the floor (alternated), or one of them.
public enum LatencyClients: String, Sendable, CaseIterable {
    case both
    case zonestream
    case floor

    /// For each measurement of run `index`, whether it is the floor's: with both, ZoneStream
    /// first in odd runs (so the floor knows the size of its outputs from the start) and the
    /// floor first in even ones, so neither always runs on a warmer broker.
    func turns(run index: Int) -> [Bool] {
        switch self {
        case .both: index % 2 == 0 ? [false, true] : [true, false]
        case .zonestream: [false]
        case .floor: [true]
        }
    }
}

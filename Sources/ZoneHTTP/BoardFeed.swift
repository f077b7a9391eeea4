import ZoneCodecs
import ZoneEngine
import ZoneProcessor

/// The group's live sessions as every board stream shares them: one list sorted by session id,
/// taken from the session directory at most once per update interval, with each session's JSON
/// encoded once per revision.
///
/// Without it, every open board gathered, sorted and encoded every live session itself: with
/// 10 k live sessions and 200 boards that was 200 times the same work per period, and most
/// boards waited seconds for their first frame. Now a board's period costs a filter and a
/// comparison of revisions, and its frames copy bytes already encoded.
actor BoardFeed {
    /// One session as boards show it.
    struct Tile: Sendable {
        let session: String
        let person: String?
        let sessionClass: String?
        let revision: UInt64
        /// `OutputEncoder.liveSession` of the session at `revision`.
        let json: [UInt8]
    }

    private let directory: LiveSessionDirectory
    private var tiles: [Tile] = []
    private var takenAt: ContinuousClock.Instant?

    init(directory: LiveSessionDirectory) {
        self.directory = directory
    }

    /// Every live session, sorted by id, no older than `maxAge`.
    func tiles(maxAge: Duration) -> [Tile] {
        let now = ContinuousClock.now
        if let takenAt, now - takenAt < maxAge { return tiles }
        tiles = Self.refreshed(tiles, with: directory.allSessions())
        takenAt = now
        return tiles
    }

    /// `entries` as tiles sorted by id, reusing the JSON of `previous` tiles whose revision
    /// has not changed.
    static func refreshed(_ previous: [Tile], with entries: [LiveSessionEntry]) -> [Tile] {
        var encoded: [String: Tile] = [:]
        encoded.reserveCapacity(previous.count)
        for tile in previous { encoded[tile.session] = tile }
        return entries.sorted { $0.state.session < $1.state.session }.map { entry in
            if let tile = encoded[entry.state.session], tile.revision == entry.revision { return tile }
            return Tile(
                session: entry.state.session, person: entry.state.person, sessionClass: entry.state.sessionClass,
                revision: entry.revision,
                json: OutputEncoder.liveSession(entry.state))
        }
    }
}

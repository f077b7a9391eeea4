import Hummingbird
import ServiceLifecycle
import ZoneCodecs
import ZoneEngine
import ZoneProcessor

/// One board's server-sent event stream: first every session shown, then each period only the
/// sessions that changed and the ids of those gone, so a wall screen with hundreds of tiles
/// receives a few changed tiles per second rather than the whole board.
///
/// Each message is `data: {"sessions":[live session…],"removed":[id…],"more":bool}` with at
/// most ``BoardEventStream/tilesPerMessage`` sessions; a period's changes beyond that go in
/// further messages, all but the last with `"more":true`. So what one stream holds at a time is
/// bounded (one message, and its record of what it sent, at most `board_max_sessions` entries),
/// and a write waits while the client's socket is full rather than buffering.
/// A period without changes sends a comment line, which also notices a closed connection.
/// The stream ends when the client goes away or the server shuts down gracefully.
struct BoardEventStream: Sendable {
    /// The most sessions in one message: about 150 KB with two zone groups each.
    static let tilesPerMessage = 250

    let feed: BoardFeed
    let settings: BoardSettings
    /// Only sessions whose id or person starts with this (one gym's screen on a shared instance).
    let prefix: String
    /// Only sessions of this class (`/board?class=`; empty: every class).
    let sessionClass: String
    /// Released when the stream ends.
    let clients: BoardClients

    func response() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { [clients] writer in
                defer { clients.close() }
                var tracker = BoardChangeTracker()
                // Tells EventSource to reconnect quickly after a restart of the instance.
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    let shown = BoardChangeTracker.select(
                        await feed.tiles(maxAge: settings.updateInterval), prefix: prefix, sessionClass: sessionClass,
                        limit: settings.maxSessions)
                    let update = tracker.changes(to: shown)
                    if update.sessions.isEmpty && update.removed.isEmpty && !tracker.isFirst {
                        try await writer.write(ByteBuffer(string: ": idle\n\n"))
                    } else {
                        // One message built at a time: a stream holds at most one.
                        for start in Self.messageStarts(count: update.sessions.count) {
                            try await writer.write(
                                Self.message(sessions: update.sessions, from: start, removed: update.removed))
                        }
                    }
                    tracker.isFirst = false
                    try? await Task.sleep(for: settings.updateInterval)
                }
                try await writer.finish(nil)
            })
    }

    /// Where each message of a period's `count` changed sessions starts (one message when
    /// nothing changed but sessions were removed).
    static func messageStarts(count: Int) -> StrideTo<Int> {
        stride(from: 0, to: max(count, 1), by: tilesPerMessage)
    }

    /// The message of at most ``tilesPerMessage`` sessions starting at `start`; the removed
    /// ids go in the first, `"more":true` in all but the last.
    static func message(sessions: [BoardFeed.Tile], from start: Int, removed: [String]) -> ByteBuffer {
        let end = min(sessions.count, start + tilesPerMessage)
        var message = ByteBuffer(string: #"data: {"sessions":["#)
        for index in start..<end {
            if index > start { message.writeString(",") }
            message.writeBytes(sessions[index].json)
        }
        message.writeString(#"],"removed":["#)
        if start == 0 {
            for (index, id) in removed.enumerated() {
                if index > 0 { message.writeString(",") }
                message.writeBytes(OutputEncoder.jsonString(id))
            }
        }
        message.writeString(end < sessions.count ? "],\"more\":true}\n\n" : "],\"more\":false}\n\n")
        return message
    }
}

/// What one board has been sent, to send only changes next time.
struct BoardChangeTracker {
    /// Revision of each session last sent.
    private(set) var sent: [String: UInt64] = [:]
    var isFirst = true

    /// The sessions a board shows: matching `prefix` (by id or person) and `sessionClass`
    /// (when given, the session's class exactly), the first `limit` by id (`tiles` are sorted
    /// by id).
    static func select(
        _ tiles: [BoardFeed.Tile], prefix: String, sessionClass: String = "", limit: Int
    ) -> ArraySlice<BoardFeed.Tile> {
        guard !prefix.isEmpty || !sessionClass.isEmpty else { return tiles.prefix(limit) }
        return tiles.lazy.filter { tile in
            (prefix.isEmpty || tile.session.hasPrefix(prefix) || (tile.person?.hasPrefix(prefix) ?? false))
                && (sessionClass.isEmpty || tile.sessionClass == sessionClass)
        }.prefix(limit).reduce(into: []) { $0.append($1) }[...]
    }

    /// The sessions new or changed since the last call, and the ids no longer shown.
    mutating func changes(to shown: ArraySlice<BoardFeed.Tile>) -> (sessions: [BoardFeed.Tile], removed: [String]) {
        var changed: [BoardFeed.Tile] = []
        var next: [String: UInt64] = [:]
        next.reserveCapacity(shown.count)
        for tile in shown {
            next[tile.session] = tile.revision
            if sent[tile.session] != tile.revision { changed.append(tile) }
        }
        let removed = sent.keys.filter { next[$0] == nil }.sorted()
        sent = next
        return (changed, removed)
    }
}

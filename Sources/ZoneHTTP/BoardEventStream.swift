import Hummingbird
import ServiceLifecycle
import ZoneCodecs
import ZoneEngine
import ZoneProcessor

/// One board's server-sent event stream: first every session shown, then each period only the
/// sessions that changed and the ids of those gone, so a wall screen with hundreds of tiles
/// receives a few changed tiles per second rather than the whole board.
///
/// Each message is `data: {"sessions":[…],"removed":[…]}` (``OutputEncoder/boardUpdate``);
/// a period without changes sends a comment line, which also notices a closed connection.
/// The stream ends when the client goes away or the server shuts down gracefully.
struct BoardEventStream: Sendable {
    let directory: LiveSessionDirectory
    let settings: BoardSettings
    /// Only sessions whose id or person starts with this (one gym's screen on a shared instance).
    let prefix: String
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
                        directory.allSessions(), prefix: prefix, limit: settings.maxSessions)
                    let update = tracker.changes(to: shown)
                    if update.sessions.isEmpty && update.removed.isEmpty && !tracker.isFirst {
                        try await writer.write(ByteBuffer(string: ": idle\n\n"))
                    } else {
                        var message = ByteBuffer(string: "data: ")
                        message.writeBytes(OutputEncoder.boardUpdate(sessions: update.sessions, removed: update.removed))
                        message.writeString("\n\n")
                        try await writer.write(message)
                    }
                    tracker.isFirst = false
                    try? await Task.sleep(for: settings.updateInterval)
                }
                try await writer.finish(nil)
            })
    }
}

/// What one board has been sent, to send only changes next time.
struct BoardChangeTracker {
    /// Revision of each session last sent.
    private(set) var sent: [String: UInt64] = [:]
    var isFirst = true

    /// The sessions a board shows: matching `prefix` (by id or person), the first `limit` by id.
    static func select(_ entries: [LiveSessionEntry], prefix: String, limit: Int) -> [LiveSessionEntry] {
        let matching = prefix.isEmpty ? entries : entries.filter {
            $0.state.session.hasPrefix(prefix) || ($0.state.person?.hasPrefix(prefix) ?? false)
        }
        guard matching.count > limit else { return matching }
        return Array(matching.sorted { $0.state.session < $1.state.session }.prefix(limit))
    }

    /// The sessions new or changed since the last call, and the ids no longer shown.
    mutating func changes(to shown: [LiveSessionEntry]) -> (sessions: [LiveSessionState], removed: [String]) {
        var changed: [LiveSessionState] = []
        var next: [String: UInt64] = [:]
        next.reserveCapacity(shown.count)
        for entry in shown {
            next[entry.state.session] = entry.revision
            if sent[entry.state.session] != entry.revision { changed.append(entry.state) }
        }
        let removed = sent.keys.filter { next[$0] == nil }.sorted()
        sent = next
        return (changed, removed)
    }
}

import Foundation
import ZoneHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Many gym boards at once: opens `clients` streams of `/board/events` together and times, for
/// each, its first message and its whole first board (the first period's messages, up to the
/// end of the first without `"more":true`). One thread reads every socket (poll), so the probe itself costs
/// little beside the endpoint it measures, and it keeps no message: it scans each read for
/// the markers it counts, carrying over only the bytes a marker could span.
public enum BoardStreamProbe {
    /// What one client saw.
    public struct ClientResult: Sendable, Codable {
        /// The HTTP status; nil when none arrived.
        public var status: Int?
        /// From sending the request to the first `data:` message.
        public var firstMessageMs: Double?
        /// From sending the request to the end of the first board.
        public var fullBoardMs: Double?
        /// Tiles in the first board.
        public var tiles = 0
        /// Bytes received up to the end of the first board (headers and framing included).
        public var bytes = 0
    }

    static let dataMarker = Array("data: ".utf8)
    static let tileMarker = Array(#""zone_groups":"#.utf8)
    static let moreMarker = Array(#""more":true"#.utf8)
    static let messageEndMarker = Array("\n\n".utf8)

    /// Opens the streams, waits until every one has its first board or `timeoutSeconds` have
    /// passed, then calls `whileConnected` (all streams still open) and closes them.
    public static func measure(
        port: Int, path: String = "/board/events", clients: Int, timeoutSeconds: Double,
        whileConnected: () -> Void = {}
    ) throws -> [ClientResult] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        for _ in 0..<clients { sockets.append(try LoopbackHTTPClient.connectedSocket(port: port)) }
        var results = [ClientResult](repeating: ClientResult(), count: clients)
        var scanners = [Scanner](repeating: Scanner(), count: clients)
        var sentAt = [Double](repeating: 0, count: clients)
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        for (index, socket) in sockets.enumerated() {
            sentAt[index] = now()
            _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        }
        var open = Set(0..<clients)
        var descriptors = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        let deadline = now() + timeoutSeconds * 1000
        while !open.isEmpty && now() < deadline {
            guard poll(&descriptors, nfds_t(descriptors.count), 50) > 0 else { continue }
            for index in 0..<clients where descriptors[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(sockets[index], $0.baseAddress, $0.count, 0) }
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    descriptors[index].fd = -1  // closed by the server: poll ignores it from now on
                    open.remove(index)
                    continue
                }
                guard count > 0, open.contains(index) else { continue }
                let at = now()
                let seen = scanners[index].scan(buffer[..<count])
                results[index].bytes += count
                results[index].tiles += seen.tiles
                if results[index].status == nil { results[index].status = seen.status }
                if let status = results[index].status, status != 200 {
                    // Refused (503 past http.max_board_clients): no board will come.
                    descriptors[index].fd = -1
                    open.remove(index)
                    continue
                }
                if seen.data && results[index].firstMessageMs == nil {
                    results[index].firstMessageMs = at - sentAt[index]
                }
                if seen.end {
                    results[index].fullBoardMs = at - sentAt[index]
                    // Still connected, but no longer read: later messages are not this board's first.
                    descriptors[index].fd = -1
                    open.remove(index)
                }
            }
        }
        whileConnected()
        return results
    }

    /// Milliseconds on a monotonic clock.
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000
    }

    /// Finds the markers in a stream read piece by piece.
    struct Scanner {
        /// The last bytes of the previous read: fewer than the longest marker, so none that
        /// spans two reads is missed, and a marker wholly inside them was seen already.
        private var tail: [UInt8] = []
        private var head: [UInt8] = []
        private var statusRead = false
        /// Inside a `data:` message, and whether it said `"more":true` so far.
        private var inMessage = false
        private var more = false

        /// What a read adds: the status (once), whether a message began, the tiles, and
        /// whether a message ended that was the last of its period (no `"more":true`; so an
        /// earlier build's single first message counts as the whole board too).
        mutating func scan(_ bytes: ArraySlice<UInt8>) -> (status: Int?, data: Bool, tiles: Int, end: Bool) {
            var status: Int?
            if !statusRead {
                head += bytes.prefix(max(0, 16 - head.count))
                if head.count >= 12 {
                    statusRead = true
                    status = Int(String(decoding: head[9..<12], as: UTF8.self))
                }
            }
            let window = tail + bytes
            let seenBefore = tail.count
            var events: [(position: Int, marker: Marker)] = []
            for marker in [Marker.data, .more, .messageEnd] {
                for position in Self.positions(marker.bytes, in: window)
                where position + marker.bytes.count > seenBefore {
                    events.append((position, marker))
                }
            }
            var data = false
            var end = false
            for event in events.sorted(by: { $0.position < $1.position }) {
                switch event.marker {
                case .data:
                    inMessage = true
                    more = false
                    data = true
                case .more:
                    more = true
                case .messageEnd:
                    if inMessage && !more { end = true }
                    inMessage = false
                }
            }
            let tiles = Self.positions(BoardStreamProbe.tileMarker, in: window)
                .filter { $0 + BoardStreamProbe.tileMarker.count > seenBefore }.count
            tail = Array(window.suffix(BoardStreamProbe.tileMarker.count - 1))
            return (status, data, tiles, end)
        }

        enum Marker {
            case data, more, messageEnd
            var bytes: [UInt8] {
                switch self {
                case .data: BoardStreamProbe.dataMarker
                case .more: BoardStreamProbe.moreMarker
                case .messageEnd: BoardStreamProbe.messageEndMarker
                }
            }
        }

        /// Where `marker` occurs in `window`: memchr to each place its rarest byte (for these
        /// markers, a letter JSON keys seldom hold) could be, then a comparison, so a probe of
        /// 200 streams of a megabyte each costs little beside the endpoint it measures.
        static func positions(_ marker: [UInt8], in window: [UInt8]) -> [Int] {
            let anchor = marker.firstIndex(of: UInt8(ascii: "g")) ?? marker.firstIndex(of: UInt8(ascii: "m")) ?? 0
            return window.withUnsafeBytes { haystack in
                marker.withUnsafeBytes { needle in
                    guard let base = haystack.baseAddress, let needleBase = needle.baseAddress else { return [] }
                    var found: [Int] = []
                    var offset = anchor
                    while offset < haystack.count,
                        let hit = memchr(base + offset, Int32(needle[anchor]), haystack.count - offset)
                    {
                        let position = base.distance(to: UnsafeRawPointer(hit)) - anchor
                        if position >= 0 && position + needle.count <= haystack.count
                            && memcmp(base + position, needleBase, needle.count) == 0
                        {
                            found.append(position)
                            offset = position + needle.count + anchor
                        } else {
                            offset = base.distance(to: UnsafeRawPointer(hit)) + 1
                        }
                    }
                    return found
                }
            }
        }
    }
}

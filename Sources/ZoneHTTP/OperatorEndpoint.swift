import Foundation
public import Hummingbird
public import Prometheus
import Synchronization
import ZoneCodecs
import ZoneEngine
public import ZoneProcessor

/// The operator's HTTP endpoint beside a running processor: what operators expect from a
/// stream processor (metrics, health, readiness), a query for one live session, and the live
/// gym board. It only reads: metrics from the Prometheus registry the processor exports into,
/// sessions from the processor's ``LiveSessionDirectory`` (never a worker's own state).
///
/// - `GET /metrics`: Prometheus text format.
/// - `GET /health`: 200 while the process is up.
/// - `GET /ready`: 200 once the assigned partitions are restored and consuming, else 503;
///   either way JSON with the reason (``Readiness``).
/// - `GET /sessions?prefix=&limit=&cursor=`: the group's live sessions in brief, a page at a time.
/// - `GET /sessions/{id}`: one live session's zone groups, from any instance of the group
///   (``GroupLiveTable``), or 404 when it is not live; the id may contain `/`.
/// - `GET /board`, `GET /board/events`: the gym board page and its server-sent events.
public struct OperatorEndpoint: Sendable {
    public let processor: ZoneProcessor
    public let registry: PrometheusCollectorRegistry
    public let board: BoardSettings
    /// Board streams open now, capped at ``BoardSettings/maxClients`` (each holds a snapshot).
    let boardClients = BoardClients()
    /// The live sessions every board stream shares.
    let boardFeed: BoardFeed
    /// The server's open connections, within `limits` (``ConnectionGuardHandler``).
    let connections: ConnectionRegistry

    public init(
        processor: ZoneProcessor, registry: PrometheusCollectorRegistry, board: BoardSettings = BoardSettings(),
        limits: EndpointLimits = EndpointLimits()
    ) {
        self.processor = processor
        self.registry = registry
        self.board = board
        self.boardFeed = BoardFeed(directory: processor.sessionDirectory)
        self.connections = ConnectionRegistry(limits: limits)
    }

    /// The routes, for an `Application` (or a test client), behind the access token when
    /// there is one (``AccessTokenMiddleware``; added before the routes, which take the
    /// middleware added before them).
    public func makeRouter(accessToken: String? = nil) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: AccessTokenMiddleware(token: accessToken))
        router.get("health") { _, _ in Self.json(.ok, #"{"status":"up"}"#) }
        router.get("ready") { request, _ in
            readiness(processing: request.uri.queryParameters.get("processing") != nil)
        }
        router.get("metrics") { _, _ in metrics() }
        router.get("sessions") { request, _ in sessionPage(request.uri.queryParameters) }
        // An id may hold `/` (`gym-12/bike-3`): the rest of the path is the id, as sent or
        // percent-encoded.
        router.get("sessions/**") { _, context in
            let raw = context.parameters.getCatchAll().joined(separator: "/")
            return session(raw.removingPercentEncoding ?? raw)
        }
        // A class id may hold `/` (`studio-3/spin-0700`), as a session id may.
        router.get("classes/**") { _, context in
            let raw = context.parameters.getCatchAll().joined(separator: "/")
            return liveClass(raw.removingPercentEncoding ?? raw)
        }
        router.get("people/:id") { _, context in
            let raw = try context.parameters.require("id")
            return person(raw.removingPercentEncoding ?? raw)
        }
        router.get("board") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: BoardPage.html)))
        }
        router.get("board/events") { request, _ in
            guard boardClients.tryOpen(limit: board.maxClients) else {
                return Self.json(
                    .serviceUnavailable,
                    #"{"error":"too many board streams open (http.max_board_clients = \#(board.maxClients))"}"#)
            }
            return BoardEventStream(
                feed: boardFeed, settings: board,
                prefix: request.uri.queryParameters.get("prefix") ?? "",
                sessionClass: request.uri.queryParameters.get("class") ?? "", clients: boardClients
            ).response()
        }
        return router
    }

    /// `/ready`: 200 while the instance can serve; `/ready?processing`: 200 only while it is
    /// consuming its partitions (not rebalancing or restoring), for alerts and operators.
    func readiness(processing: Bool) -> Response {
        let restoring = processor.metrics.partitionsRestoring.load(ordering: .relaxed)
        let readiness = processor.readiness
        let reason = String(decoding: OutputEncoder.jsonString(readiness.reason), as: UTF8.self)
        // The embedded broker keeps nothing: a probe or an operator reading /ready is told.
        let embedded = processor.configuration.embeddedBroker ? #","broker":"embedded, not for production""# : ""
        let passed = processing ? readiness.isProcessing : readiness.isReady
        return Self.json(
            passed ? .ok : .serviceUnavailable,
            #"{"ready":\#(readiness.isReady),"processing":\#(readiness.isProcessing),"reason":\#(reason),"partitions_restoring":\#(restoring),"live_sessions":\#(processor.liveSessions)\#(embedded)}"#
        )
    }

    func metrics() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(
                byteBuffer: ByteBuffer(
                    string: MetricsExposition.text(
                        registry: registry, readiness: processor.readiness,
                        embeddedBroker: processor.configuration.embeddedBroker,
                        clients: (connections: connections.count, boardStreams: boardClients.count)))))
    }

    func session(_ id: String) -> Response {
        guard let entry = processor.sessionDirectory.session(id) else {
            let quoted = String(decoding: OutputEncoder.jsonString(id), as: UTF8.self)
            return Self.json(.notFound, #"{"error":"session is not live in the group","session":\#(quoted)}"#)
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(
                byteBuffer: ByteBuffer(bytes: OutputEncoder.liveSession(entry.state, staleMs: entry.staleMs))))
    }

    /// The most sessions one page of `GET /sessions` holds.
    static let maximumPageSize = 1000

    /// One page of the group's live sessions whose ids start with `prefix`, in id order, after
    /// `cursor` (the last id of the previous page), at most `limit` (100 unless given).
    func sessionPage(_ query: Parameters) -> Response {
        let prefix = query.get("prefix") ?? ""
        let cursor = query.get("cursor") ?? ""
        guard let limit = Int(query.get("limit") ?? "100"), (1...Self.maximumPageSize).contains(limit) else {
            return Self.json(
                .badRequest, #"{"error":"limit must be a whole number from 1 to \#(Self.maximumPageSize)"}"#)
        }
        let matching = processor.sessionDirectory.allSessions().filter { $0.state.session.hasPrefix(prefix) }
            .sorted { $0.state.session < $1.state.session }
        let page = Array(matching.lazy.filter { cursor.isEmpty || $0.state.session > cursor }.prefix(limit))
        let more =
            page.last.map { last in matching.last.map { $0.state.session > last.state.session } ?? false } ?? false
        let body = OutputEncoder.liveSessionPage(
            page.map { ($0.state, $0.staleMs) }, matching: matching.count,
            nextCursor: more ? page.last?.state.session : nil,
            nowMs: Int64(Date().timeIntervalSince1970 * 1000))
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A class as it runs: its plan's step now, and its live members (the group-wide table).
    func liveClass(_ sessionClass: String) -> Response {
        let members = processor.sessionDirectory.allSessions().filter { $0.state.sessionClass == sessionClass }
            .map { (state: $0.state, staleMs: $0.staleMs) }
        let plan = processor.classPlans.plan(for: sessionClass)
        let results = processor.classSummaries.summary(of: sessionClass)
        guard !members.isEmpty || plan != nil || results != nil else {
            let quoted = String(decoding: OutputEncoder.jsonString(sessionClass), as: UTF8.self)
            return Self.json(.notFound, #"{"error":"no plan and no live session for this class","class":\#(quoted)}"#)
        }
        let body = OutputEncoder.liveClass(
            sessionClass, plan: plan, members: members, results: results,
            name: { processor.profiles.profile(for: $0)?.name }, nowMs: Int64(Date().timeIntervalSince1970 * 1000))
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A person's latest `person_summary`, from the group-wide table of `person-summaries`.
    func person(_ id: String) -> Response {
        guard let summary = processor.personSummaries.summary(of: id) else {
            let quoted = String(decoding: OutputEncoder.jsonString(id), as: UTF8.self)
            return Self.json(.notFound, #"{"error":"no summary for this person","person":\#(quoted)}"#)
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: summary)))
    }

    static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}

/// How the gym board streams.
public struct BoardSettings: Sendable {
    /// How often the board's event stream sends what changed (sessions change at most once per
    /// commit interval, so a shorter period only adds keep-alives).
    public var updateInterval: Duration = .seconds(1)
    /// The most tiles one board shows (the first by session id); a wall screen of a gym with
    /// hundreds of members fits well within the default.
    public var maxSessions = 2000
    /// The most board streams open at once (`http.max_board_clients`); more are refused with
    /// 503, so screens cannot grow the instance's memory without bound.
    public var maxClients = 256

    public init(updateInterval: Duration = .seconds(1), maxSessions: Int = 2000, maxClients: Int = 256) {
        self.updateInterval = updateInterval
        self.maxSessions = maxSessions
        self.maxClients = maxClients
    }
}

/// Counts the open board streams.
final class BoardClients: Sendable {
    private let open = Atomic<Int>(0)

    /// Opens one stream unless `limit` are open already.
    func tryOpen(limit: Int) -> Bool {
        if open.add(1, ordering: .relaxed).newValue <= limit { return true }
        open.subtract(1, ordering: .relaxed)
        return false
    }

    func close() { open.subtract(1, ordering: .relaxed) }

    /// Streams open now.
    var count: Int { open.load(ordering: .relaxed) }
}

import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// The bounds of the operator's endpoint against clients that connect and then say nothing,
/// or too little: a connection must send its first request's head within `headerTimeout`,
/// a keep-alive connection with no request in progress is closed after `idleTimeout`, and
/// at most `maxConnections` are open at once.
public struct EndpointLimits: Sendable {
    /// How long a new connection may take to send its first request's head, in ms
    /// (`http.header_timeout_ms`).
    public var headerTimeoutMs: Int
    /// How long a connection may stay open with no request in progress, in seconds
    /// (`http.idle_timeout_s`); later requests' heads must come within it too.
    public var idleTimeoutSeconds: Int
    /// The most connections open at once (`http.max_connections`).
    public var maxConnections: Int

    public init(headerTimeoutMs: Int = 10_000, idleTimeoutSeconds: Int = 60, maxConnections: Int = 1024) {
        self.headerTimeoutMs = headerTimeoutMs
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maxConnections = maxConnections
    }

    var headerTimeout: TimeAmount { .milliseconds(Int64(headerTimeoutMs)) }
    var idleTimeout: TimeAmount { .seconds(Int64(idleTimeoutSeconds)) }
}

/// The open connections of the endpoint, oldest first, each waiting (nothing read yet),
/// partial (bytes read, but no whole request head), busy (a request in progress) or idle
/// (between requests). When a new connection would pass the cap, one that is not busy is
/// closed to make room: the oldest partial one if there is one, else the oldest of the others.
/// A client that holds connections without finishing a request loses them to one that does,
/// so a probe of `/health` still gets through while thousands of slow clients hold the cap,
/// even when a thousand more connect between the probe's connection being accepted and its
/// request being read (it is waiting then, and they are partial). Only when every connection
/// is busy is the new one refused.
final class ConnectionRegistry: Sendable {
    enum State { case waiting, partial, busy, idle }

    private struct Entry {
        let channel: any Channel
        var state: State
    }

    private struct Table {
        var next = 0
        /// By id; ids grow with each connection, so the smallest is the oldest.
        var entries: [Int: Entry] = [:]
        var order: [Int] = []
        var orderStart = 0
        /// How many entries are partial: none, and the oldest not busy is closed without a search.
        var partial = 0

        /// Sets an entry's state, keeping the partial count.
        mutating func set(_ id: Int, to state: State) {
            guard let old = entries[id]?.state, old != state else { return }
            if old == .partial { partial -= 1 }
            if state == .partial { partial += 1 }
            entries[id]?.state = state
        }

        mutating func remove(_ id: Int) -> Entry? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            if entry.state == .partial { partial -= 1 }
            return entry
        }
    }

    let limits: EndpointLimits
    private let table = NIOLockedValueBox(Table())

    init(limits: EndpointLimits) {
        self.limits = limits
    }

    /// Connections open now.
    var count: Int { table.withLockedValue { $0.entries.count } }

    /// Registers a new connection; returns its id, or nil when every open connection is busy
    /// and the cap is reached (the caller closes it). May close the oldest waiting or idle one.
    func opened(_ channel: any Channel) -> Int? {
        let (id, evicted) = table.withLockedValue { table -> (Int?, (any Channel)?) in
            var evicted: (any Channel)?
            if table.entries.count >= limits.maxConnections {
                guard let oldest = Self.evictionCandidate(table) else { return (nil, nil) }
                evicted = table.remove(oldest)?.channel
            }
            let id = table.next
            table.next += 1
            table.entries[id] = Entry(channel: channel, state: .waiting)
            table.order.append(id)
            return (id, evicted)
        }
        evicted?.close(promise: nil)
        return id
    }

    func update(_ id: Int, to state: State) {
        table.withLockedValue { $0.set(id, to: state) }
    }

    /// Bytes were read from a connection still waiting for its first request head, and no
    /// whole head was among them.
    func readWithoutHead(_ id: Int) {
        table.withLockedValue { table in
            if table.entries[id]?.state == .waiting { table.set(id, to: .partial) }
        }
    }

    /// The state of connection `id`, nil when it is not registered.
    func state(of id: Int) -> State? { table.withLockedValue { $0.entries[id]?.state } }

    func closed(_ id: Int) {
        table.withLockedValue { table in
            _ = table.remove(id)
            // Drop the ids of closed connections from the front of the order, so it stays short.
            while table.orderStart < table.order.count, table.entries[table.order[table.orderStart]] == nil {
                table.orderStart += 1
            }
            if table.orderStart > 1024 && table.orderStart * 2 > table.order.count {
                table.order.removeFirst(table.orderStart)
                table.orderStart = 0
            }
        }
    }

    /// The connection to close for a new one: the oldest partial one, else the oldest that is
    /// not busy; nil when every connection is busy.
    private static func evictionCandidate(_ table: Table) -> Int? {
        let partialOnly = table.partial > 0
        var index = table.orderStart
        while index < table.order.count {
            let id = table.order[index]
            if let state = table.entries[id]?.state, partialOnly ? state == .partial : state != .busy { return id }
            index += 1
        }
        return nil
    }
}

/// One connection's guard in the channel pipeline, after HTTP decoding: registers the
/// connection, closes it when its first request head does not come within the header
/// timeout, and tells the registry when a request starts and when its response ends.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let registry: ConnectionRegistry
    private var id: Int?
    private var headerDeadline: Scheduled<Void>?

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let id = registry.opened(context.channel) else {
            context.close(promise: nil)
            return
        }
        self.id = id
        let channel = context.channel
        headerDeadline = context.eventLoop.scheduleTask(in: registry.limits.headerTimeout) {
            channel.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headerDeadline?.cancel()
        if let id { registry.closed(id) }
        id = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data), let id {
            headerDeadline?.cancel()
            headerDeadline = nil
            registry.update(id, to: .busy)
        }
        context.fireChannelRead(data)
    }

    /// The end of a read: with no request head yet (the decoders pass this on whether or not
    /// the bytes made a part), the connection sent part of one.
    func channelReadComplete(context: ChannelHandlerContext) {
        if headerDeadline != nil, let id { registry.readWithoutHead(id) }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), let id { registry.update(id, to: .idle) }
        context.write(data, promise: promise)
    }
}

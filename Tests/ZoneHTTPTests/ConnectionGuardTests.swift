import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Testing

@testable import ZoneHTTP

/// Which connection the endpoint closes when a new one would pass `http.max_connections`:
/// slow clients that sent part of a request head go first, so a probe whose request has not
/// been read yet is not closed for them.
@Suite struct ConnectionGuardTests {
    /// A connection through the endpoint's decoders and its guard, as the server builds it.
    static func connection(_ registry: ConnectionRegistry) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        // Accepted first, then set up: the guard registers it when added.
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        try channel.pipeline.syncOperations.addHandler(ConnectionGuardHandler(registry: registry))
        return channel
    }

    static func send(_ text: String, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(channel.allocator.buffer(string: text))
    }

    @Test func halfAHeadMakesAConnectionPartialAndAWholeOneBusy() throws {
        let registry = ConnectionRegistry(limits: EndpointLimits(maxConnections: 10))
        let slow = try Self.connection(registry)
        let probe = try Self.connection(registry)
        let silent = try Self.connection(registry)
        try Self.send("GET /health HTTP/1.1\r\nHost: x", to: slow)
        try Self.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", to: probe)
        #expect(registry.state(of: 0) == .partial)
        #expect(registry.state(of: 1) == .busy)
        #expect(registry.state(of: 2) == .waiting)
        #expect(registry.count == 3)
        _ = try? slow.finish()
        _ = try? probe.finish()
        _ = try? silent.finish()
        #expect(registry.count == 0)
    }

    /// At the cap, the oldest partial connection is closed, not an older one that is waiting
    /// (a probe accepted but not yet read) or busy.
    @Test func atTheCapTheOldestPartialConnectionIsClosedFirst() throws {
        let registry = ConnectionRegistry(limits: EndpointLimits(maxConnections: 4))
        let probe = try Self.connection(registry)
        let busy = try Self.connection(registry)
        try Self.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", to: busy)
        let slow = try Self.connection(registry)
        let slower = try Self.connection(registry)
        try Self.send("GET /he", to: slow)
        try Self.send("GET /he", to: slower)
        let newcomer = try Self.connection(registry)
        #expect(probe.isActive && busy.isActive && slower.isActive && newcomer.isActive)
        #expect(!slow.isActive, "the oldest partial connection was closed")
        #expect(registry.count == 4)
        for channel in [probe, busy, slower, newcomer] { _ = try? channel.finish() }
    }

    /// With no partial connection, the oldest that is not busy is closed; with every one busy,
    /// the new connection is refused.
    @Test func withoutPartialConnectionsTheOldestNotBusyIsClosedAndAllBusyRefusesTheNew() throws {
        let registry = ConnectionRegistry(limits: EndpointLimits(maxConnections: 2))
        let busy = try Self.connection(registry)
        try Self.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", to: busy)
        let waiting = try Self.connection(registry)
        let newcomer = try Self.connection(registry)
        #expect(!waiting.isActive, "the oldest connection not busy was closed")
        #expect(busy.isActive && newcomer.isActive)
        try Self.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", to: newcomer)
        let refused = try Self.connection(registry)
        #expect(!refused.isActive, "every connection busy: the new one is refused")
        #expect(busy.isActive && newcomer.isActive)
        for channel in [busy, newcomer] { _ = try? channel.finish() }
    }
}

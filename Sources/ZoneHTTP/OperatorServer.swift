import Foundation
import Hummingbird
import HummingbirdCore
public import Logging
public import Prometheus
public import ServiceLifecycle
public import ZoneProcessor

/// The operator's HTTP endpoint as a service: the routes of ``OperatorEndpoint`` behind the
/// access token, on an HTTP/1.1 server with the connection bounds of ``EndpointLimits``.
public enum OperatorServer {
    /// Where and how the endpoint listens.
    public struct Settings: Sendable {
        public var host: String
        public var port: Int
        public var board: BoardSettings
        public var limits: EndpointLimits
        /// Required by the paths that show members' data, when set (``AccessTokenMiddleware``).
        public var accessToken: String?

        public init(
            host: String, port: Int, board: BoardSettings = BoardSettings(), limits: EndpointLimits = EndpointLimits(),
            accessToken: String? = nil
        ) {
            self.host = host
            self.port = port
            self.board = board
            self.limits = limits
            self.accessToken = accessToken
        }
    }

    /// The service; logs "http endpoint listening" with its port and board address once bound,
    /// and tells `onListening` the board's address.
    public static func service(
        processor: ZoneProcessor, registry: PrometheusCollectorRegistry, settings: Settings, logger: Logger,
        onListening: @escaping @Sendable (String) -> Void = { _ in }
    ) -> some Service {
        let endpoint = OperatorEndpoint(
            processor: processor, registry: registry, board: settings.board, limits: settings.limits)
        let router = endpoint.makeRouter(accessToken: settings.accessToken)
        let connections = endpoint.connections
        let host = settings.host
        return Application(
            router: router,
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    additionalChannelHandlers: [ConnectionGuardHandler(registry: connections)],
                    idleTimeout: settings.limits.idleTimeout)),
            configuration: ApplicationConfiguration(address: .hostname(host, port: settings.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let address = Self.boardAddress(host: host, port: port)
                logger.info(
                    "http endpoint listening",
                    metadata: ["host": "\(host)", "port": .stringConvertible(port), "board": "\(address)"])
                onListening(address)
            },
            logger: logger)
    }

    /// The board's address as a person opens it: a wildcard bind (`0.0.0.0`, `::`) is reached
    /// through the machine's name, which a browser can use, rather than the wildcard itself.
    static func boardAddress(host: String, port: Int, machine: String = ProcessInfo.processInfo.hostName) -> String {
        let reachable = ["0.0.0.0", "::", "[::]", ""].contains(host) ? machine : host
        let bracketed = reachable.contains(":") && !reachable.hasPrefix("[") ? "[\(reachable)]" : reachable
        return "http://\(bracketed):\(port)/board"
    }
}

import Foundation
public import Hummingbird

/// Requires the access token, when one is set, on every request except the probe and scrape
/// routes (`/health`, `/ready`, `/metrics`): deny by default, so a route added later, or a
/// path the router reads differently from how it is written (`//sessions`, `/Board`,
/// `/%62oard`, `/./people/x`), is guarded too. The token comes as
/// `Authorization: Bearer <token>` or, for a wall screen that can only open a URL (and for the
/// board's own event stream, which browsers open without headers), `?token=<token>`. Without a
/// token every path is open (the endpoint's default bind is loopback; the command line refuses
/// a wider bind without a token unless told the network is trusted).
public struct AccessTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The only routes open without the token, each one path segment exactly as written.
    static var openRoutes: Set<String> { ["health", "ready", "metrics"] }

    let token: [UInt8]?

    public init(token: String?) {
        self.token = token.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let token, !Self.isOpen(path: request.uri.path) else {
            return try await next(request, context)
        }
        let presented = request.headers[.authorization].flatMap(Self.bearer) ?? request.uri.queryParameters.get("token")
        guard let presented, Self.constantTimeEqual(Array(presented.utf8), token) else {
            return Response(
                status: .unauthorized,
                headers: [.contentType: "application/json", .wwwAuthenticate: "Bearer"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        string:
                            #"{"error":"this endpoint shows members' data: send the access token (http.token) as Authorization: Bearer or ?token="}"#
                    )))
        }
        return try await next(request, context)
    }

    /// Whether a path is one of the open routes: exactly `/health`, `/ready` or `/metrics`.
    /// Anything else, including the same names reached through empty or dot segments,
    /// percent-encoding, another case or a trailing slash, needs the token.
    static func isOpen(path: String) -> Bool {
        guard path.utf8.first == UInt8(ascii: "/") else { return false }
        let name = path.dropFirst()
        return !name.contains("/") && openRoutes.contains(String(name))
    }

    /// The token of an `Authorization: Bearer <token>` header.
    static func bearer(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    /// Compares without stopping at the first difference, so the time taken does not tell
    /// how much of a guess was right.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(lhs.count == rhs.count ? 0 : 1)
        for index in 0..<max(lhs.count, rhs.count) {
            difference |= (index < lhs.count ? lhs[index] : 0) ^ (index < rhs.count ? rhs[index] : 0)
        }
        return difference == 0
    }
}

import Foundation
public import Hummingbird

/// Requires the access token for every path that shows a person's data (live sessions,
/// people, the board and its stream), as `Authorization: Bearer <token>` or, for a wall
/// screen that can only open a URL (and for the board's own event stream, which browsers
/// open without headers), `?token=<token>`. `/health`, `/ready` and `/metrics` stay open to
/// probes and scrapers. Without a token every path is open (the endpoint's default bind is
/// loopback; the command line refuses a wider bind without a token unless told the network
/// is trusted).
public struct AccessTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Paths under these prefixes need the token.
    static var guardedPrefixes: [String] { ["/sessions", "/people", "/board"] }

    let token: [UInt8]?

    public init(token: String?) {
        self.token = token.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let token, Self.guardedPrefixes.contains(where: { request.uri.path.hasPrefix($0) }) else {
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
                            #"{"error":"this path shows members' data: send the access token (http.token) as Authorization: Bearer or ?token="}"#
                    )))
        }
        return try await next(request, context)
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

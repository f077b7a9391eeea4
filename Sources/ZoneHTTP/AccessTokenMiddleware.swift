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
            // A person opening the board in a browser gets a page to give the token on, not
            // the machine's JSON answer; it holds nothing of any member.
            if request.uri.path == "/board", request.headers[.accept]?.contains("text/html") == true {
                return Self.signInPage(
                    sessionClass: request.uri.queryParameters.get("class"), refused: presented != nil)
            }
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

    /// The board's sign-in page: the token typed in goes along as `?token=`, with the class
    /// the address named. Still a 401: nothing is shown without the token.
    static func signInPage(sessionClass: String?, refused: Bool) -> Response {
        let classField =
            sessionClass.map { #"<input type="hidden" name="class" value="\#(htmlEscaped($0))">"# } ?? ""
        let notice = refused ? #"<p class="refused">That token is not this board's.</p>"# : ""
        let page = #"""
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>ZoneStream gym board: sign in</title>
            <style>
            body { font-family: system-ui, sans-serif; background: #111; color: #eee; display: grid; place-items: center; min-height: 100vh; margin: 0; }
            form { display: grid; gap: 1rem; font-size: 1.5rem; min-width: 20rem; }
            input { font-size: 1.5rem; padding: 0.5rem; }
            .refused { color: #f88; }
            </style></head>
            <body><form method="get" action="/board">
            <h1>Gym board</h1>
            <label for="token">The board's access token</label>\#(notice)
            <input id="token" name="token" type="password" autocomplete="current-password" autofocus required>
            \#(classField)<button type="submit">Show the board</button>
            </form></body></html>
            """#
        return Response(
            status: .unauthorized,
            headers: [.contentType: "text/html; charset=utf-8", .wwwAuthenticate: "Bearer"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    static func htmlEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
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

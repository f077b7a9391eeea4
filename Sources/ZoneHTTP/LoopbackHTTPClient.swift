import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 client for the operator endpoint's tests and the board load run: one GET per connection
/// (`Connection: close`) to 127.0.0.1, read to the end. Small on purpose: a full client
/// (AsyncHTTPClient, through HummingbirdTesting) compiled TLS and HTTP/2 into every test build.
public enum LoopbackHTTPClient {
    public struct Response: Sendable {
        public let status: Int
        /// Header names in lower case.
        public let headers: [String: String]
        public let body: String
    }

    public enum Failure: Error, CustomStringConvertible {
        case connect(port: Int, errno: Int32)
        case malformed(String)
        public var description: String {
            switch self {
            case .connect(let port, let errno):
                "connecting to 127.0.0.1:\(port) failed: \(String(cString: strerror(errno)))"
            case .malformed(let text): "not an HTTP response: \(text.prefix(200))"
            }
        }
    }

    /// GETs `path` from 127.0.0.1:`port` with `headers`; waits at most `timeoutSeconds` for
    /// each read.
    public static func get(port: Int, path: String, headers: [String: String] = [:], timeoutSeconds: Int = 10) throws
        -> Response
    {
        try parse(exchange(port: port, path: path, headers: headers, timeoutSeconds: timeoutSeconds, until: nil))
    }

    /// Sends one request with `method` (`HEAD`, `OPTIONS`, ...) and a request target written
    /// exactly as given (an absolute form such as `http://host//sessions` included).
    public static func request(
        _ method: String, port: Int, target: String, headers: [String: String] = [:], timeoutSeconds: Int = 10
    ) throws -> Response {
        try parse(
            exchange(
                method: method, port: port, path: target, headers: headers, timeoutSeconds: timeoutSeconds,
                until: nil))
    }

    /// The first server-sent event's data line of the stream at `path` (the connection is
    /// closed once it has arrived).
    public static func firstEventData(port: Int, path: String, timeoutSeconds: Int = 10) throws -> String {
        func data(_ bytes: [UInt8]) -> String? {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let start = text.range(of: "\ndata: ") ?? text.range(of: "\r\ndata: "),
                let end = text.range(of: "\n", range: start.upperBound..<text.endIndex)
            else { return nil }
            return String(text[start.upperBound..<end.lowerBound])
        }
        let bytes = try exchange(port: port, path: path, timeoutSeconds: timeoutSeconds) { data($0) != nil }
        guard let line = data(bytes) else { throw Failure.malformed(String(decoding: bytes, as: UTF8.self)) }
        return line
    }

    /// Sends the request and reads the answer until the server closes or `until` holds.
    private static func exchange(
        method: String = "GET", port: Int, path: String, headers: [String: String] = [:], timeoutSeconds: Int,
        until: (([UInt8]) -> Bool)?
    ) throws -> [UInt8] {
        let socket = try connectedSocket(port: port)
        defer { close(socket) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let extra = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        let request = Array(
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(extra)Connection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw Failure.connect(port: port, errno: errno) }
            sent += written
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received.append(contentsOf: buffer[..<count])
            if let until, until(received) { break }
        }
        return received
    }

    /// A TCP socket connected to 127.0.0.1:`port`; the caller closes it.
    public static func connectedSocket(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure.connect(port: port, errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let error = errno
            close(socket)
            throw Failure.connect(port: port, errno: error)
        }
        return socket
    }

    static func parse(_ bytes: [UInt8]) throws -> Response {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { throw Failure.malformed(text) }
        let lines = text[..<headEnd.lowerBound].components(separatedBy: "\r\n")
        let statusWords = lines.first?.split(separator: " ") ?? []
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else { throw Failure.malformed(text) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = String(text[headEnd.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return Response(status: status, headers: headers, body: body)
    }

    /// Joins a chunked body's chunks (sizes in hex, each line ended by CRLF).
    static func dechunk(_ text: String) -> String {
        var rest = Substring(text)
        var body = ""
        while let lineEnd = rest.range(of: "\r\n"), let size = Int(rest[..<lineEnd.lowerBound], radix: 16), size > 0 {
            let start = lineEnd.upperBound
            let end = rest.utf8.index(start, offsetBy: size, limitedBy: rest.utf8.endIndex) ?? rest.endIndex
            body += rest[start..<end]
            rest = rest[end...].dropFirst(2)
        }
        return body
    }
}

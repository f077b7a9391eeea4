import Glibc

/// Loopback ports for tests: a port nobody listens on, a socket that holds one, and whether
/// something accepts connections on one.
public enum FreePort {
    /// Binds a TCP socket to 127.0.0.1 on a port the kernel picks and listens on it: the
    /// caller holds the port until it closes the socket.
    public static func listeningSocket() throws(TestBrokerError) -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestBrokerError(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound && listen(socket, 1) == 0 else {
            close(socket)
            throw TestBrokerError(description: "no loopback port to bind: errno \(errno)")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A loopback port free a moment ago (for a child process to bind).
    public static func find() throws(TestBrokerError) -> Int {
        let (socket, port) = try listeningSocket()
        close(socket)
        return port
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    public static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A test broker that could not be started or used.
public struct TestBrokerError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Checks, before anything starts, that the HTTP endpoint's address can be bound, so a busy
/// port is refused with a message naming the address, the port and the setting to change.
enum PortCheck {
    /// `remedy`: what to change, for the command at hand.
    static func requireFree(host: String, port: Int, remedy: String = settingsRemedy) throws(SettingsError) {
        guard port != 0 else { return }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let address = result else {
            throw SettingsError(
                description:
                    "cannot resolve http.host '\(host)'; set http.host to an address of this machine (e.g. 127.0.0.1)")
        }
        defer { freeaddrinfo(result) }
        let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard socket >= 0 else { return }
        defer { close(socket) }
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            throw SettingsError(
                description: bindFailure(
                    host: host, port: port, error: String(cString: strerror(errno)), remedy: remedy))
        }
    }

    static let settingsRemedy =
        "set http.port (--http-port) to a free port or 0 for any, http.host to another address, or turn it off with --no-http"

    static func bindFailure(host: String, port: Int, error: String, remedy: String = settingsRemedy) -> String {
        "cannot listen on \(host):\(port) for the HTTP endpoint (\(error)); \(remedy)"
    }
}

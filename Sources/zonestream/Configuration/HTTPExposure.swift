import Foundation

/// Whether the HTTP endpoint may bind where it is told to: members' heart rates are on it,
/// so a bind beyond loopback needs an access token, unless the operator says the network is
/// trusted. Checked with the other settings, before anything starts.
enum HTTPExposure {
    /// Refuses a bind beyond loopback without `http.token` unless `http.trusted_network`.
    static func check(host: String, token: String, trustedNetwork: Bool) throws {
        guard !isLoopback(host), token.isEmpty, !trustedNetwork else { return }
        throw SettingsError(
            description: """
                http.host '\(host)' is reachable beyond this machine, and the endpoint shows members' heart rates: \
                set http.token (clients send it as Authorization: Bearer, a wall screen as /board?token=), \
                or set http.trusted_network=true if every client that can reach the port may read them
                """)
    }

    /// `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let trimmed = host.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "localhost" || trimmed == "::1" || trimmed == "[::1]" { return true }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

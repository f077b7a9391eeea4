import ArgumentParser
import Foundation
import ZoneHTTP

/// `zonestream sessions`: the group's live sessions, as a running instance on this machine
/// sees them (`GET /sessions`, page by page): id, person, zone per quantity, last sample age.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the group's live sessions from the local instance's endpoint (GET /sessions).")

    @OptionGroup var settings: SettingsOptions

    @Option(help: "Only sessions whose id starts with this.")
    var prefix = ""

    @Option(help: "The most sessions to list.")
    var limit = 100

    @Option(help: "Port of the endpoint (default: the http.port setting).")
    var port: Int?

    @Flag(help: "Print each session as a JSON line instead of a table.")
    var json = false

    func validate() throws {
        try requireOption("--limit", limit, in: 1...10_000_000)
        if let port { try requireOption("--port", port, in: 1...65_535) }
    }

    func run() throws {
        let loader = try settings.load()
        let port = port ?? loader.integer("http.port")
        let token = loader.string("http.token")
        let headers = token.isEmpty ? [:] : ["Authorization": "Bearer \(token)"]
        var cursor: String?
        var listed = 0
        var matching = 0
        repeat {
            var query = [
                URLQueryItem(name: "prefix", value: prefix),
                URLQueryItem(name: "limit", value: "\(min(1000, limit - listed))"),
            ]
            if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
            var components = URLComponents()
            components.path = "/sessions"
            components.queryItems = query
            let response = try LoopbackHTTPClient.get(
                port: port, path: components.percentEncodedPath + "?" + (components.percentEncodedQuery ?? ""),
                headers: headers)
            guard response.status == 200,
                let page = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any],
                let sessions = page["sessions"] as? [[String: Any]]
            else {
                throw CommandFailure(
                    description: "GET /sessions on 127.0.0.1:\(port): \(response.status) \(response.body)")
            }
            // The header once the endpoint has answered: an error is then all that is printed.
            if !json && cursor == nil {
                print(Self.row(["SESSION", "PERSON", "CLASS", "HEART_RATE", "CYCLING_POWER", "AGE_S"]))
            }
            for session in sessions { print(json ? Self.jsonLine(session) : Self.tableRow(session)) }
            listed += sessions.count
            matching = page["matching"] as? Int ?? 0
            cursor = page["next_cursor"] as? String
        } while cursor != nil && listed < limit
        if !json {
            print("\(listed) of \(matching) live sessions\(prefix.isEmpty ? "" : " starting with '\(prefix)'")")
        }
    }

    static func tableRow(_ session: [String: Any]) -> String {
        let zones = session["zones"] as? [String: Any] ?? [:]
        func zone(_ quantity: String) -> String { (zones[quantity] as? Int).map { "zone \($0)" } ?? "-" }
        let age = (session["last_sample_age_ms"] as? Int).map { String(format: "%.1f", Double($0) / 1000) } ?? "-"
        return row([
            session["session"] as? String ?? "", session["person"] as? String ?? "-",
            session["class"] as? String ?? "-", zone("heart_rate"), zone("cycling_power"), age,
        ])
    }

    static func row(_ columns: [String]) -> String {
        let widths = [24, 20, 16, 11, 14, 8]
        return zip(columns, widths).map { $0.padding(toLength: max($1, $0.count), withPad: " ", startingAt: 0) }
            .joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    static func jsonLine(_ session: [String: Any]) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: session, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

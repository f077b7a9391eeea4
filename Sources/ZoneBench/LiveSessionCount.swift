import Foundation
import ZoneHTTP

/// The live sessions of a `zonestream run` child, read from its `/ready` endpoint.
enum LiveSessionCount {
    /// Polls until the processor on `port` holds at least `atLeast` live sessions, at most
    /// `seconds`; returns the last count read.
    static func wait(port: Int, atLeast: Int, seconds: Double) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var live = 0
        while Date() < deadline {
            if let response = try? LoopbackHTTPClient.get(port: port, path: "/ready"),
                let object = try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any],
                let count = object["live_sessions"] as? Int
            {
                live = count
                if live >= atLeast { return live }
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        return live
    }
}

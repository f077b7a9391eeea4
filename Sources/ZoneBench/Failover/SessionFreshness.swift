import Foundation
import NIOConcurrencyHelpers
import ZoneHTTP

/// Watches every live session of a group through one instance's `GET /sessions`, a few times
/// a second, and notes when each session's latest sample time moves on: the wall-clock gaps
/// between those moves are how long a session went without the outputs it should have had.
final class SessionFreshness: @unchecked Sendable {
    // @unchecked: `sessions` is behind `lock`; the thread is started once and stopped once.
    private struct Watched {
        var latestTimestamp: Int64
        var lastAdvance: Date
    }

    private let port: Int
    private let lock = NIOLock()
    private var sessions: [String: Watched] = [:]
    /// Every advance seen: the session, when, and the gap since its previous advance.
    private var advances: [(session: String, at: Date, gap: TimeInterval)] = []
    private var running = true
    private var thread: Thread?

    init(port: Int) {
        self.port = port
    }

    func start() {
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                poll()
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        self.thread = thread
        thread.start()
    }

    func stop() { lock.withLock { running = false } }

    private func poll() {
        guard let response = try? LoopbackHTTPClient.get(port: port, path: "/sessions?limit=1000", timeoutSeconds: 5),
            response.status == 200,
            let page = try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any],
            let listed = page["sessions"] as? [[String: Any]]
        else { return }
        let now = Date()
        lock.withLock {
            for session in listed {
                guard let id = session["session"] as? String,
                    let latest = (session["latest_ts"] as? NSNumber)?.int64Value
                else {
                    continue
                }
                guard let watched = sessions[id] else {
                    sessions[id] = Watched(latestTimestamp: latest, lastAdvance: now)
                    continue
                }
                guard latest > watched.latestTimestamp else { continue }
                advances.append((id, now, now.timeIntervalSince(watched.lastAdvance)))
                sessions[id] = Watched(latestTimestamp: latest, lastAdvance: now)
            }
        }
    }

    /// What the sessions went through from `start` to `end`: the longest gap between two
    /// advances of one session (a session still waiting at `end` counts up to `end`), and when
    /// the last gap longer than `pauseSeconds` ended, counted from `start` (nil: one had not
    /// ended by `end`; 0: there was none), which is when every session was moving again.
    func window(from start: Date, to end: Date, pauseSeconds: TimeInterval = 2.5) -> (
        longestGap: TimeInterval, settled: TimeInterval?
    ) {
        lock.withLock {
            let inWindow = advances.filter { $0.at > start && $0.at <= end }
            var longest = inWindow.map(\.gap).max() ?? 0
            var settled: TimeInterval? =
                inWindow.filter { $0.gap > pauseSeconds }.map { $0.at.timeIntervalSince(start) }.max() ?? 0
            for watched in sessions.values where end.timeIntervalSince(watched.lastAdvance) > pauseSeconds {
                longest = max(longest, end.timeIntervalSince(watched.lastAdvance))
                settled = nil
            }
            return (longest, settled)
        }
    }

    var sessionCount: Int { lock.withLock { sessions.count } }
}

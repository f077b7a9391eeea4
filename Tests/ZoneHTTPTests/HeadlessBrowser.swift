import Foundation
import ZoneTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's chromium, headless, driven through the DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: commands on fd 3, answers on fd 4, each a JSON text ended by
/// NUL), so a test can load a page, run JavaScript in it and take a screenshot, with no
/// WebSocket client. The browser is killed by PID when the test is done.
final class HeadlessBrowser {
    struct BrowserError: Error, CustomStringConvertible {
        let description: String
    }

    /// Where Debian installs chromium (scripts/bootstrap.sh installs it for the tests).
    static let executable = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private var pid: pid_t = 0
    private let commands: Int32
    private let answers: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1
    private var sessionID: String?
    private let profileDirectory: URL

    init(width: Int = 1400, height: Int = 900) throws {
        guard let executable = Self.executable else { throw BrowserError(description: "chromium is not installed") }
        profileDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "zs-chromium-\(UUID().uuidString)")
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
            throw BrowserError(description: "pipe failed: \(errno)")
        }
        for descriptor in toBrowser + fromBrowser { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // dup2 onto 3 and 4 clears close-on-exec there; a source already at 3 or 4 is moved up first.
        let browserReads = Self.above4(toBrowser[0])
        let browserWrites = Self.above4(fromBrowser[1])
        commands = toBrowser[1]
        answers = fromBrowser[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, browserReads, 3)
        posix_spawn_file_actions_adddup2(&actions, browserWrites, 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--remote-debugging-pipe", "--user-data-dir=\(profileDirectory.path)",
            "--window-size=\(width),\(height)", "about:blank",
        ]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        close(browserReads)
        close(browserWrites)
        guard status == 0 else { throw BrowserError(description: "starting chromium failed: \(status)") }
    }

    private static func above4(_ descriptor: Int32) -> Int32 {
        guard descriptor <= 4 else { return descriptor }
        let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
        close(descriptor)
        return moved
    }

    /// Opens `url` in a new page and attaches to it; later commands go to that page.
    func open(_ url: String) throws {
        let target = try send("Target.createTarget", ["url": url], toPage: false)
        guard let targetID = target["targetId"] as? String else {
            throw BrowserError(description: "no target: \(target)")
        }
        let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true], toPage: false)
        sessionID = attached["sessionId"] as? String
    }

    /// Evaluates `expression` in the page; its value (JSON-compatible) comes back.
    func evaluate(_ expression: String) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = result["exceptionDetails"] { throw BrowserError(description: "script failed: \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Evaluates `expression` until it is true, up to `seconds`.
    func wait(seconds: Double, until expression: String) throws -> Bool {
        try Eventually.holds(within: seconds, poll: 0.1) { try evaluate(expression) as? Bool == true }
    }

    /// A PNG of the page as the browser renders it.
    func screenshot() throws -> Data {
        let result = try send("Page.captureScreenshot", ["format": "png"])
        guard let encoded = result["data"] as? String, let data = Data(base64Encoded: encoded) else {
            throw BrowserError(description: "no screenshot data")
        }
        return data
    }

    /// Sends one command and waits (up to 20 s) for its answer, skipping events.
    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:], toPage: Bool = true) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if toPage, let sessionID { message["sessionId"] = sessionID }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard count > 0 else { throw BrowserError(description: "writing to chromium failed: \(errno)") }
            written += count
        }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            while let end = buffer.firstIndex(of: 0) {
                let text = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let answer = try JSONSerialization.jsonObject(with: text) as? [String: Any],
                    answer["id"] as? Int == id
                else { continue }
                if let error = answer["error"] { throw BrowserError(description: "\(method) failed: \(error)") }
                return answer["result"] as? [String: Any] ?? [:]
            }
            try readAvailable(timeoutMs: 200)
        }
        throw BrowserError(description: "\(method): no answer from chromium in 20 s")
    }

    private func readAvailable(timeoutMs: Int32) throws {
        var descriptor = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeoutMs) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
        guard count > 0 else { throw BrowserError(description: "chromium closed the pipe") }
        buffer.append(contentsOf: chunk[..<count])
    }

    deinit {
        _ = try? send("Browser.close", toPage: false)
        close(commands)
        close(answers)
        let deadline = Date().addingTimeInterval(5)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        try? FileManager.default.removeItem(at: profileDirectory)
    }
}

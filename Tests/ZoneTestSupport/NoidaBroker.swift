public import Foundation
import Logging
import ZoneKafka
import ZoneProcessor

/// A noida-db process speaking the Kafka protocol on a free loopback port, with its data in a
/// fresh directory: the second, independent Kafka implementation the integration tests run on.
/// Installed by `scripts/bootstrap.sh --noida-db` into the project's `.venv`. Its own binary
/// is started (not the venv's Python wrapper), so the PID signalled is the broker's.
public final class NoidaBroker: @unchecked Sendable {
    // @unchecked: the process is started in init and stopped once, by the test that owns it.
    private let process = Process()
    public let port: Int
    public let dataDirectory: URL
    let logFile: URL

    public var bootstrapServers: String { "127.0.0.1:\(port)" }
    public var pid: Int32 { process.processIdentifier }

    /// The noida-db binary inside the venv's package (nil when it is not installed).
    public static var executable: URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let lib = root.appendingPathComponent(".venv/lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        for version in versions.sorted() where version.hasPrefix("python") {
            let binary = lib.appendingPathComponent(version).appendingPathComponent("site-packages/noida_db/noida-db")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        return nil
    }

    /// Starts the broker and creates the contract's topics with `partitions` each, and the
    /// internal topics of the default group and of each of `applications`.
    public init(partitions: Int = 4, applications: [String] = []) throws {
        guard Self.executable != nil else {
            throw TestBrokerError(description: "noida-db is not installed: run `bash scripts/bootstrap.sh --noida-db`")
        }
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-noida-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        logFile = dataDirectory.appendingPathExtension("log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        port = try FreePort.find()
        try start()
        try createTopics(partitions: partitions, applications: applications)
    }

    private func start() throws {
        guard let executable = Self.executable else { return }
        process.executableURL = executable
        process.arguments = [
            "start", "--data-dir", dataDirectory.path, "--host", "127.0.0.1", "--only", "kafka", "--kafka-port",
            "\(port)",
        ]
        let log = try FileHandle(forWritingTo: logFile)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && process.isRunning {
            if FreePort.accepts(port: port) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw TestBrokerError(description: "noida-db did not listen on port \(port): \(output.suffix(500))")
    }

    private func createTopics(partitions: Int, applications: [String]) throws {
        let producer = try KafkaProducer(
            configuration: KafkaConfiguration(bootstrapServers: bootstrapServers, clientID: "zs-test-admin"))
        for topics in [Topics()] + applications.map({ Topics(application: $0) }) {
            try TopicAdmin.createMissing(topics.specifications(partitions: partitions), using: producer)
        }
    }

    /// What the broker printed (its start line, warnings).
    public var output: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Stops the broker (SIGTERM; SIGKILL after 10 s) and removes its data directory and log.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            Eventually.holds(within: 10, poll: 0.02) { !process.isRunning }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: dataDirectory)
        try? FileManager.default.removeItem(at: logFile)
    }

    deinit { stop() }
}

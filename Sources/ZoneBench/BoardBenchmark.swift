public import Foundation
import NIOConcurrencyHelpers
import Synchronization
import ZoneHarness
import ZoneKafka
import ZoneProcessor
import ZoneSimulation

/// The gym board at scale (`zonestream bench board`): an embedded broker and a `zonestream run`
/// as child processes, the load generator keeping `sessions` members in class (one second of
/// class per second), then `clients` boards opened at once, in several waves. It reports how long each
/// board waited for its first message and for its whole first board, and the processor's
/// resident memory before, with every board connected, and at its peak, so the per-board cost
/// and its bound can be read off.
public struct BoardBenchmark: Sendable {
    public var sessions: Int
    public var clients: Int
    /// Where board.json goes.
    public var output: String
    /// The `zonestream` executable, started as the broker and the processor.
    public var executable: URL
    /// Another `zonestream` build to run as the processor (the broker stays `executable`'s),
    /// to measure an earlier version's board with the same probe and traffic.
    public var processorExecutable: URL?
    /// How long a wave of boards may take before it is given up.
    public var timeoutSeconds = 60.0
    /// The processor's `http.board_max_sessions`: the most tiles one board is sent.
    public var boardMaxSessions = 2000
    /// Waves of `clients` boards, one after another: the processor's memory with each wave
    /// connected shows whether boards leave anything behind.
    public var waves = 3

    public init(
        sessions: Int, clients: Int, output: String, executable: URL = URL(fileURLWithPath: CommandLine.arguments[0])
    ) {
        self.sessions = sessions
        self.clients = clients
        self.output = output
        self.executable = executable
    }

    /// What one run measured.
    public struct Figures: Sendable, Codable {
        public var sessions: Int
        public var liveSessions: Int
        public var clients: Int
        public var boardMaxSessions: Int
        /// One entry per wave of `clients` boards.
        public var waves: [Wave]
        public var rssBeforeBytes: Int
        public var rssPeakBytes: Int
        public var machine: String

        public struct Wave: Sendable, Codable {
            /// Boards the endpoint refused (503: more than `http.max_board_clients`).
            public var clientsRefused: Int
            public var clientsWithFullBoard: Int
            public var clientsWithinTwoSeconds: Int
            public var firstMessageP50Ms: Double
            public var fullBoardP50Ms: Double
            public var fullBoardP99Ms: Double
            public var fullBoardMaxMs: Double
            public var tilesPerBoardMin: Int
            public var tilesPerBoardMax: Int
            public var bytesPerBoard: Int
            /// The processor's resident memory with every board of the wave connected.
            public var rssConnectedBytes: Int
        }

        public var summary: String {
            var lines = [
                "board bench: \(liveSessions) live sessions, \(clients) boards at once, board_max_sessions \(boardMaxSessions), \(machine)",
                String(
                    format: "processor RSS: %.0f MB before the boards, peak %.0f MB", Double(rssBeforeBytes) / 1e6,
                    Double(rssPeakBytes) / 1e6),
            ]
            for (index, wave) in waves.enumerated() {
                lines.append(
                    String(
                        format:
                            "wave %d: %d/%d full boards (%d refused), %d within 2 s; first message p50 %.0f ms; full board p50/p99/max %.0f/%.0f/%.0f ms; %d-%d tiles, %.2f MB each; RSS connected %.0f MB",
                        index + 1, wave.clientsWithFullBoard, clients, wave.clientsRefused,
                        wave.clientsWithinTwoSeconds, wave.firstMessageP50Ms,
                        wave.fullBoardP50Ms, wave.fullBoardP99Ms, wave.fullBoardMaxMs, wave.tilesPerBoardMin,
                        wave.tilesPerBoardMax,
                        Double(wave.bytesPerBoard) / 1e6, Double(wave.rssConnectedBytes) / 1e6))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Runs it; prints progress and the figures, and writes `output`/board.json.
    public func run(extraSettings: [String] = []) throws -> Figures {
        let broker = try BrokerProcess(partitions: 8, executable: executable)
        defer { broker.stop() }
        // The class's profiles go first, so the processor has them all when it starts.
        let traffic = ClassTraffic(bootstrap: broker.bootstrapServers, members: sessions)
        try traffic.start()
        defer { traffic.stop() }
        let processor = try ZoneStreamProcess.processor(
            bootstrap: broker.bootstrapServers, group: "board-bench",
            extra: [
                "--set", "workers=2", "--set", "commit_interval_ms=1000",
                "--set", "http.board_max_sessions=\(boardMaxSessions)", "--set",
                "max_live_sessions=\(max(100_000, sessions * 2))",
            ]
                + extraSettings,
            executable: processorExecutable ?? executable)
        defer { processor.signal(SIGTERM) }
        guard let port = processor.httpPort() else {
            throw BenchError("board bench: the processor did not start: \(processor.output.suffix(800))")
        }
        let live = try waitUntilShown(port: port, traffic: traffic)
        let before = ProcessMemory.residentBytes(pid: processor.pid)
        var measured: [Figures.Wave] = []
        for wave in 1...max(1, waves) {
            print("board bench: wave \(wave): opening \(clients) boards at once")
            var connected = 0
            let results = try BoardStreamProbe.measure(port: port, clients: clients, timeoutSeconds: timeoutSeconds) {
                connected = ProcessMemory.residentBytes(pid: processor.pid).current
            }
            measured.append(Self.wave(results, rssConnected: connected))
            // A pause between waves (not a wait for anything): the server closes the last
            // wave's streams at its next update.
            Thread.sleep(forTimeInterval: 2)
        }
        let figures = Figures(
            sessions: sessions, liveSessions: live, clients: clients, boardMaxSessions: boardMaxSessions,
            waves: measured,
            rssBeforeBytes: before.current, rssPeakBytes: ProcessMemory.residentBytes(pid: processor.pid).peak,
            machine:
                "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB"
        )
        print(figures.summary)
        try write(figures)
        return figures
    }

    /// Waits until every member is live and one board shows every tile it will show (the
    /// directory has every session); the live sessions counted.
    private func waitUntilShown(port: Int, traffic: ClassTraffic) throws -> Int {
        print("board bench: \(sessions) members in class, waiting until the processor has them all live")
        let live = LiveSessionCount.wait(port: port, atLeast: sessions, seconds: 180)
        if let failure = traffic.failure.withLockedValue({ $0 }) {
            throw BenchError("board bench: the class traffic stopped: \(failure)")
        }
        guard live >= sessions else {
            throw BenchError("board bench: only \(live) of \(sessions) sessions live after 180 s")
        }
        let expectedTiles = min(sessions, boardMaxSessions)
        let deadline = Date().addingTimeInterval(60)
        while try BoardStreamProbe.measure(port: port, clients: 1, timeoutSeconds: 10).first?.tiles ?? 0 < expectedTiles
        {
            guard Date() < deadline else {
                throw BenchError("board bench: a board had fewer than \(expectedTiles) tiles after 60 s")
            }
        }
        return live
    }

    private func write(_ figures: Figures) throws {
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(figures).write(to: URL(fileURLWithPath: "\(output)/board.json"))
        print("board bench: wrote \(output)/board.json")
    }

    static func wave(_ results: [BoardStreamProbe.ClientResult], rssConnected: Int) -> Figures.Wave {
        let full = results.compactMap(\.fullBoardMs).sorted()
        let first = results.compactMap(\.firstMessageMs).sorted()
        let complete = results.filter { $0.fullBoardMs != nil }
        return Figures.Wave(
            clientsRefused: results.filter { $0.status != nil && $0.status != 200 }.count,
            clientsWithFullBoard: full.count, clientsWithinTwoSeconds: full.filter { $0 <= 2000 }.count,
            firstMessageP50Ms: Percentile.of(0.5, first), fullBoardP50Ms: Percentile.of(0.5, full),
            fullBoardP99Ms: Percentile.of(0.99, full), fullBoardMaxMs: full.last ?? 0,
            tilesPerBoardMin: complete.map(\.tiles).min() ?? 0, tilesPerBoardMax: complete.map(\.tiles).max() ?? 0,
            bytesPerBoard: complete.isEmpty ? 0 : complete.map(\.bytes).reduce(0, +) / complete.count,
            rssConnectedBytes: rssConnected)
    }
}

/// The load generator's class, `members` strong, produced one simulated second per real second
/// (the first as fast as it goes) on a thread of its own, starting now.
final class ClassTraffic: Sendable {
    let bootstrap: String
    let members: Int
    private let running = Atomic<Bool>(true)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)
    /// The first record the broker refused (produce waits while the local queue is full, so
    /// what is left is permanent); the traffic stops there and the run reports it.
    let failure = NIOLockedValueBox<String?>(nil)

    init(bootstrap: String, members: Int) {
        self.bootstrap = bootstrap
        self.members = members
    }

    func start() throws {
        let producer = try KafkaProducer(
            configuration: KafkaConfiguration(bootstrapServers: bootstrap, clientID: "zonestream-board-bench"))
        var plan = TrafficPlan()
        plan.members = members
        plan.sessionSeconds = 24 * 3600
        plan.sessionPrefix = "board"
        plan.startMs = Int64(Date().timeIntervalSince1970 * 1000)
        for profile in LoadGenerator(plan: plan).profiles(topic: "zone-profiles") {
            try producer.produce(
                topic: profile.topic, key: Array(profile.key.utf8), value: Array(profile.value.utf8), tracker: nil)
        }
        let traffic = self
        let classPlan = plan
        thread.withLockedValue {
            $0 = JoinableThread(name: "zs-board-traffic") {
                var generator = LoadGenerator(plan: classPlan)
                let begun = Date()
                var second = 0
                while traffic.running.load(ordering: .relaxed) {
                    do {
                        for record in generator.nextSecond(topic: "workout-events") {
                            try producer.produce(
                                topic: record.topic, key: Array(record.key.utf8), value: Array(record.value.utf8),
                                tracker: nil)
                        }
                    } catch {
                        traffic.failure.withLockedValue { $0 = "\(error)" }
                        break
                    }
                    second += 1
                    while traffic.running.load(ordering: .relaxed) && Date().timeIntervalSince(begun) < Double(second) {
                        producer.pollDeliveryReports(timeoutMs: 20)
                    }
                }
                try? producer.flush(timeoutMs: 5000)
            }
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread.withLockedValue { $0 }?.join()
    }
}

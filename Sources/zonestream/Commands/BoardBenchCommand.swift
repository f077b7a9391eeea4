import ArgumentParser
import Foundation
import ZoneBench

/// `zonestream bench board`: the gym board at scale (``BoardBenchmark``).
struct BoardBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Open many gym boards at once against a processor with many live sessions; time their first boards.")

    @Option(help: "Members in class (live sessions), from the load generator.") var sessions = 10_000
    @Option(help: "Boards opened at once, in each wave.") var clients = 200
    @Option(help: "Waves of boards, one after another.") var waves = 3
    @Option(help: "Where to write board.json (bench's own --output is read before this command).")
    var resultsDirectory = "benchmarks/results"
    @Option(help: "Give a wave up after this many seconds.") var timeoutS = 60
    @Option(help: "The processor's http.board_max_sessions (the most tiles one board is sent).") var boardMaxSessions =
        2000
    @Option(help: "Run this zonestream build as the processor (to measure an earlier version the same way).")
    var processorExecutable: String?

    func validate() throws {
        guard sessions >= 1 else { throw ValidationError("--sessions must be at least 1") }
        try requireOption("--clients", clients, in: 1...10_000, note: " (http.max_board_clients' range)")
        try requireOption("--board-max-sessions", boardMaxSessions, in: 1...100_000)
        try requireOption("--waves", waves, in: 1...100)
        guard timeoutS >= 1 else { throw ValidationError("--timeout-s must be at least 1") }
    }

    func run() throws {
        var benchmark = BoardBenchmark(sessions: sessions, clients: clients, output: resultsDirectory)
        benchmark.timeoutSeconds = Double(timeoutS)
        benchmark.boardMaxSessions = boardMaxSessions
        benchmark.waves = waves
        benchmark.processorExecutable = processorExecutable.map { URL(fileURLWithPath: $0) }
        _ = try benchmark.run(extraSettings: ["--set", "http.max_board_clients=\(max(256, clients))"])
    }
}

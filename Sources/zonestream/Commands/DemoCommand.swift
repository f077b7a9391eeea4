import ArgumentParser
import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import Synchronization
import UnixSignals
import ZoneHTTP
import ZoneKafka
import ZoneProcessor
import ZoneSimulation

/// `zonestream demo`: a short gym class on an embedded broker, through the real producer,
/// processor and consumers; shows live zones, then each finished workout as per-zone bars.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Simulate a gym class end to end on an embedded broker and show the zones.")

    @Option(help: "Members in the class.")
    var members = 24

    @Option(help: "Length of the class in simulated seconds.")
    var seconds = 240

    @Option(help: "Real milliseconds per simulated second.")
    var tickMs = 20

    @Option(help: "Random seed (same seed, same class).")
    var seed: UInt64 = 7

    @Option(help: "Port of the gym board and the operator endpoint on 127.0.0.1 (0: any free port; -1: none).")
    var httpPort = 8080

    @Flag(help: "Exit when the class is over; by default its results stay on the board until SIGINT or SIGTERM.")
    var exitAfterClass = false

    func run() async throws {
        try await ExitStatus.mapping { try await runDemo() }
    }

    /// Where to watch the class live, and where each class's results are once it is over (the
    /// live board empties as workouts finish; a class's results are at `?class=`).
    static func boardLines(_ address: String, classes: [String]) -> String {
        var lines = "The class on the gym board: \(address)\n"
        for name in classes {
            let query = name.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? name
            lines += "The results of \(name), once it is over: \(address)?class=\(query)\n"
        }
        return lines + "\n"
    }

    /// The classes of the demo's gym.
    var classNames: [String] {
        GymClass(memberCount: members, durationSeconds: seconds, seed: seed, startMs: 0).classNames
    }

    private func runDemo() async throws {
        let logger = Logs.bootstrap(level: "warning")
        if httpPort > 0 {
            try PortCheck.requireFree(
                host: "127.0.0.1", port: httpPort,
                remedy: "choose another with --http-port (0: any free port, -1: no board)")
        }
        let cluster = try EmbeddedBroker.start(brokers: 1, partitions: 4)
        let kafka = KafkaConfiguration(bootstrapServers: cluster.bootstrapServers, clientID: "zonestream-demo")
        print(
            "ZoneStream demo: embedded broker at \(cluster.bootstrapServers), \(members) members, \(seconds) s class\n")
        var configuration = ProcessorConfiguration(kafka: kafka)
        configuration.commitIntervalMs = 500
        configuration.createTopicPartitions = 0  // the embedded broker has its topics
        configuration.publishesLiveSessions = httpPort >= 0
        let registry = PrometheusCollectorRegistry()
        let processor = ZoneProcessor(
            configuration: configuration, logger: logger,
            metricsFactory: MetricsExposition.makeFactory(registry: registry))
        let gymClass = GymClassService(
            kafka: kafka, processor: processor, logger: logger, members: members, seconds: seconds, tickMs: tickMs,
            seed: seed, keepsBoard: httpPort >= 0 && !exitAfterClass)
        // The class ends the group when it is over; SIGTERM or SIGINT ends it early. Either way
        // the processor drains, commits and stops, and every client is gone before the broker.
        var services: [any Service] = [BlockingService.processor(processor), gymClass]
        if httpPort >= 0 {
            // The wall board of the class while it runs, on loopback.
            services.append(
                OperatorServer.service(
                    processor: processor, registry: registry,
                    settings: OperatorServer.Settings(
                        host: "127.0.0.1", port: httpPort, board: BoardSettings(updateInterval: .milliseconds(500))),
                    logger: logger,
                    onListening: { address in
                        // Unbuffered, so the address shows at once even when stdout is a pipe or a file.
                        FileHandle.standardOutput.write(Data(Self.boardLines(address, classes: classNames).utf8))
                    }))
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    .init(
                        service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        withExtendedLifetime(cluster) {}
    }
}

/// The demo's class: profiles, then each simulated second's events, live tables every minute
/// and the finished workouts at the end, read back by the output board.
struct GymClassService: Service {
    let kafka: KafkaConfiguration
    let processor: ZoneProcessor
    let logger: Logger
    let members: Int
    let seconds: Int
    let tickMs: Int
    let seed: UInt64
    /// Whether the board stays up with the class's results once it is over, until stopped.
    let keepsBoard: Bool

    func run() async throws {
        var gym = GymClass(
            memberCount: members, durationSeconds: seconds, seed: seed,
            startMs: Int64(Date().timeIntervalSince1970 * 1000) - Int64(seconds) * 1000)
        let producer = try KafkaProducer(configuration: kafka)
        // The members' profiles and the coach's interval plans of the class's studios.
        for record in gym.profiles(topic: "zone-profiles") + gym.classPlans(topic: "class-plans") {
            try producer.produce(
                topic: record.topic, key: Array(record.key.utf8), value: Array(record.value.utf8), tracker: nil)
        }
        try producer.flush(timeoutMs: 10_000)
        let board = try OutputBoard(kafka: kafka, logger: logger)
        board.start()
        defer { board.stop() }
        while !processor.isReady {
            guard !Task.isShuttingDownGracefully else { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        for second in 0...seconds {
            guard !Task.isShuttingDownGracefully else { return }
            for record in gym.events(at: second, topic: "workout-events") {
                try producer.produce(
                    topic: record.topic, key: Array(record.key.utf8), value: Array(record.value.utf8), tracker: nil)
            }
            producer.pollDeliveryReports(timeoutMs: 0)
            if second > 0 && second % 60 == 0 {
                try producer.flush(timeoutMs: 5000)
                try await Task.sleep(for: .milliseconds(1500))
                print(board.liveTable(at: second, members: gym.members.map(\.session)))
            }
            try await Task.sleep(for: .milliseconds(tickMs))
        }
        try producer.flush(timeoutMs: 10_000)
        let deadline = Date().addingTimeInterval(30)
        while board.finishedCount < members && Date() < deadline && !Task.isShuttingDownGracefully {
            try await Task.sleep(for: .milliseconds(100))
        }
        print(board.finishedReport())
        print(
            "zone changes: \(board.zoneChangeCount), finished workouts: \(board.finishedCount) of \(members), "
                + "samples processed: \(processor.metrics.samplesIn.load(ordering: .relaxed)), "
                + "dead letters: \(processor.metrics.deadLetters.load(ordering: .relaxed))")
        guard board.finishedCount == members else {
            throw CommandFailure(description: "only \(board.finishedCount) of \(members) workouts finished")
        }
        guard keepsBoard else { return }
        FileHandle.standardOutput.write(
            Data(
                "\nThe class is over; its results stay on the board at the results addresses above until you stop the demo (Ctrl-C).\n"
                    .utf8))
        try? await gracefulShutdown()
    }
}

import ArgumentParser
import Foundation
import Logging
import Synchronization
import ZoneKafka
import ZoneProcessor
import ZoneSimulation

/// `zonestream demo`: a short gym class on an embedded broker, through the real producer,
/// processor and consumers; shows live zones, then each finished workout as per-zone bars.
struct DemoCommand: ParsableCommand {
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

    func run() throws {
        let logger = Logs.bootstrap(level: "warning")
        let cluster = try EmbeddedBroker.start(brokers: 1, partitions: 4)
        // Every client lives inside `simulate`, so all are gone before the broker stops.
        try simulate(bootstrapServers: cluster.bootstrapServers, logger: logger)
        withExtendedLifetime(cluster) {}
    }

    private func simulate(bootstrapServers: String, logger: Logger) throws {
        let kafka = KafkaConfiguration(bootstrapServers: bootstrapServers, clientID: "zonestream-demo")
        print("ZoneStream demo: embedded broker at \(bootstrapServers), \(members) members, \(seconds) s class\n")

        var gym = GymClass(
            memberCount: members, durationSeconds: seconds, seed: seed,
            startMs: Int64(Date().timeIntervalSince1970 * 1000) - Int64(seconds) * 1000)
        let producer = try KafkaProducer(configuration: kafka)
        for record in gym.profiles(topic: "zone-profiles") {
            try producer.produce(topic: record.topic, key: Array(record.key.utf8), value: Array(record.value.utf8), tracker: nil)
        }
        try producer.flush(timeoutMs: 10_000)

        var configuration = ProcessorConfiguration(kafka: kafka)
        configuration.commitIntervalMs = 500
        configuration.createTopicPartitions = 0  // the embedded broker has its topics
        let processor = ZoneProcessor(configuration: configuration, logger: logger)
        let processorError = Mutex<String?>(nil)
        let processorThread = JoinableThread(name: "zs-demo-run") {
            do { try processor.run() } catch { processorError.withLock { $0 = "\(error)" } }
        }
        TerminationSignals.onTermination { processor.stop() }
        let board = try OutputBoard(kafka: kafka, logger: logger)
        board.start()
        while !processor.isReady {
            if let error = processorError.withLock({ $0 }) {
                processorThread.join()
                throw SettingsError(description: "processor failed: \(error)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }

        for second in 0...seconds {
            for record in gym.events(at: second, topic: "workout-events") {
                try producer.produce(topic: record.topic, key: Array(record.key.utf8), value: Array(record.value.utf8), tracker: nil)
            }
            producer.pollDeliveryReports(timeoutMs: 0)
            if second > 0 && second % 60 == 0 {
                try producer.flush(timeoutMs: 5000)
                Thread.sleep(forTimeInterval: 1.5)
                print(board.liveTable(at: second, members: gym.members.map(\.session)))
            }
            Thread.sleep(forTimeInterval: Double(tickMs) / 1000)
        }
        try producer.flush(timeoutMs: 10_000)
        let deadline = Date().addingTimeInterval(30)
        while board.finishedCount < members && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        print(board.finishedReport())
        print("zone changes: \(board.zoneChangeCount), finished workouts: \(board.finishedCount) of \(members), "
            + "samples processed: \(processor.metrics.samplesIn.load(ordering: .relaxed)), "
            + "dead letters: \(processor.metrics.deadLetters.load(ordering: .relaxed))")
        processor.stop()
        processorThread.join()
        board.stop()
        if let error = processorError.withLock({ $0 }) { throw SettingsError(description: error) }
        guard board.finishedCount == members else {
            throw SettingsError(description: "only \(board.finishedCount) of \(members) workouts finished")
        }
    }
}

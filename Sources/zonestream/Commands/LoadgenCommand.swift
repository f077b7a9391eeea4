import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import ZoneEngine
import ZoneKafka
import ZoneSimulation

/// `zonestream loadgen`: realistic workout traffic for any Kafka, deterministic for a seed,
/// and its own oracle: with `--check` it waits for ZoneStream's finished workouts and
/// compares each with the one it expects.
struct LoadgenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loadgen", abstract: "Produce realistic workout traffic, and check ZoneStream's results.")

    @Option(help: "Kafka bootstrap servers.") var bootstrapServers: String
    @Option(help: "Members per class (concurrent sessions).") var members = 100
    @Option(help: "Simulated seconds per session.") var sessionSeconds = 300
    @Option(help: "Classes run one after another (new session ids each).") var waves = 1
    @Option(help: "Target records per second (0: flat out).") var rate = 0
    @Option(help: "Stop after this many real seconds (0: no limit); open sessions are ended.") var durationS = 0
    @Option(
        help: """
            Spread the classes over this many UTC days, the same members in each, so person \
            summaries have history (one class a day at least: --waves grows to --days).
            """)
    var days = 1
    @Option(help: "Simulated start of the first class, ms since the epoch (default: now, or --days - 1 days ago).")
    var startTs: Int64?
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Session id prefix.") var prefix = "lg"
    @Option(help: "Fraction of samples dropped (sensor dropouts).") var dropouts = 0.0
    @Option(help: "Fraction of samples sent twice.") var duplicates = 0.0
    @Option(help: "Fraction of samples also sent 3 s late.") var late = 0.0
    @Option(help: "Fraction of samples replaced by malformed JSON.") var malformed = 0.0
    @Option(help: "Send heart rate as sample_series of this many values.") var series = 1
    @Option(help: "max_gap_ms the processor uses (for the oracle).") var maxGapMs: Int64 = 10_000
    @Option(
        help:
            "Wait this long after publishing profiles before the sessions (0: none; ZoneStream reads profiles as of each session's first event)."
    )
    var profileSettleMs = 0
    @Flag(help: "Wait for the finished workouts and compare them with the oracle (clean traffic only).")
    var check = false
    @Option(help: "How long --check waits for results.") var checkTimeoutS = 120
    @Option(help: "Give up when no broker answers within this many seconds.") var connectTimeoutS = 15
    @Flag(
        help: """
            With --check, for processing_guarantee exactly_once: any repeated output fails the check, \
            the outputs are read to the end of every partition, and the records of aborted \
            transactions (seen only by a read_uncommitted reader) are counted.
            """)
    var exactlyOnce = false
    @Option(help: "Write the expected finished workouts (JSON lines) to this file.") var expectFile: String?

    func run() async throws {
        try await ExitStatus.mapping { try await generateLoad() }
    }

    private func generateLoad() async throws {
        let logger = Logs.bootstrap(level: "warning")
        let command = self
        let stop = StopFlag()
        // SIGTERM or SIGINT: open sessions are ended, what was sent is flushed, and it exits.
        let generator = BlockingService(
            name: "zs-loadgen", work: { try command.generate(logger: logger, stop: stop) }, stop: { stop.raise() })
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: generator, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    func generate(logger: Logger, stop: StopFlag) throws {
        let kafka = KafkaConfiguration(bootstrapServers: bootstrapServers, clientID: "zonestream-loadgen")
        var run = try LoadRun(kafka: kafka, maxGapMs: maxGapMs, connectTimeoutS: connectTimeoutS)
        let schedule = ClassSchedule(
            classes: days > 1 ? max(waves, days) : waves, days: days, classSeconds: sessionSeconds,
            firstStartMs: startTs
                ?? ClassSchedule.defaultStart(days: days, nowMs: Int64(Date().timeIntervalSince1970 * 1000)))
        var stoppedEarly = false
        wavesLoop: for wave in 0..<schedule.classes {
            let plan = trafficPlan(wave: wave, schedule: schedule)
            var generator = LoadGenerator(plan: plan)
            // Members shared by every class keep the profile of the first: a profile changed
            // while a processor may not have read it yet would make the oracle's zones a guess.
            if wave == 0 || plan.personPrefix == nil {
                try run.sendProfiles(generator.profiles(topic: "zone-profiles"), settleMs: profileSettleMs)
            }
            // Each class's plan, anchored at this wave's start, before its sessions start.
            try run.sendClassPlans(generator.classPlans(topic: "class-plans"))
            var second = 0
            while !generator.isFinished {
                if stop.isRaised || (durationS > 0 && run.elapsed >= Double(durationS)) {
                    // Out of time, or stopped: end the wave's open sessions so every workout finishes.
                    try run.endSessions(of: plan, members: members, at: plan.startMs + Int64(second) * 1000)
                    stoppedEarly = true
                    break wavesLoop
                }
                try run.send(generator.nextSecond(topic: "workout-events"), rate: rate)
                second += 1
                // Done: the share of the simulated class time sent, or of --duration-s.
                var done = Double(wave * sessionSeconds + second) / Double(max(1, schedule.classes * sessionSeconds))
                if durationS > 0 { done = max(done, run.elapsed / Double(durationS)) }
                run.reportProgress(wave: wave, of: schedule.classes, done: done)
            }
        }
        let expected = try run.finish(
            stoppedBy: stop.isRaised ? "a signal" : stoppedEarly ? "the time limit" : nil, expectFile: expectFile)
        guard check, !stop.isRaised else { return }
        guard dropouts == 0 && duplicates == 0 && late == 0 && malformed == 0 else {
            throw ValidationError("--check needs clean traffic (no injected faults)")
        }
        try checkResults(oracle: run.oracle, expected: expected, kafka: kafka, logger: logger)
    }

    /// The plan of one class: its seed, faults, ids (members shared by every class when the
    /// run spans days) and simulated start.
    private func trafficPlan(wave: Int, schedule: ClassSchedule) -> TrafficPlan {
        var plan = TrafficPlan()
        plan.members = members
        plan.sessionSeconds = sessionSeconds
        plan.seed = seed &+ UInt64(wave)
        plan.dropoutFraction = dropouts
        plan.duplicateFraction = duplicates
        plan.lateFraction = late
        plan.malformedFraction = malformed
        plan.seriesLength = series
        plan.sessionPrefix = "\(prefix)\(wave)"
        plan.personPrefix = days > 1 ? prefix : nil
        plan.startMs = schedule.startMs(ofClass: wave)
        return plan
    }
}

import Foundation
import ZoneHTTP
import ZoneHarness
import ZoneKafka
import ZoneProcessor

/// A `zonestream run` child of any build over the preloaded records: its rate over the
/// same window as an in-process run's (``RateWindow``), read from its `/metrics`, and the CPU
/// the child used in it. How two builds are compared under one harness, against one floor
/// (``BuildComparison``).
enum ChildThroughput {
    /// A child's settings: ``BenchProcessorRun``'s configuration (its group and its own state
    /// topics, workers, the commit interval of an in-process run), given as `run --set` flags.
    struct Run {
        var executable: URL
        var configuration: ProcessorConfiguration
        /// The build's own settings, after the run's.
        var settings: [String] = []

        /// `zonestream run`'s arguments: every topic named, so every build reads and writes the
        /// run's own. A build that does not know one of these settings refuses to start, and
        /// the comparison stops with its error: builds are compared on the same settings.
        var arguments: [String] {
            let topics = configuration.topics
            let settings = [
                "group_id=\(configuration.groupID)", "workers=\(configuration.workers)",
                "commit_interval_ms=\(configuration.commitIntervalMs)", "create_topics.partitions=0", "log_level=info",
                "topics.workout_events=\(topics.workoutEvents)", "topics.zone_profiles=\(topics.zoneProfiles)",
                "topics.zone_changes=\(topics.zoneChanges)", "topics.workouts_finished=\(topics.workoutsFinished)",
                "topics.dead_letters=\(topics.deadLetters)", "topics.changelog=\(topics.changelog)",
                "topics.person_workouts=\(topics.personWorkouts)", "topics.person_changelog=\(topics.personChangelog)",
                "topics.person_summaries=\(topics.personSummaries)", "topics.class_workouts=\(topics.classWorkouts)",
                "topics.class_changelog=\(topics.classChangelog)", "topics.class_summaries=\(topics.classSummaries)",
                "topics.class_plans=\(topics.classPlans)", "topics.target_changes=\(topics.targetChanges)",
            ]
            return ["run", "--bootstrap-servers", configuration.kafka.bootstrapServers, "--http-port", "0"]
                + (settings + self.settings).flatMap { ["--set", $0] }
        }
    }

    /// How often the child's count is read. Each read is counted where the window opens and
    /// closes, so the rate is exact however far apart the reads are; but serving `/metrics`
    /// is the child's own work, in its CPU. Read every 10 ms, it was about a seventh of a
    /// child's CPU in the window (perf), more for a build with more metrics; every 100 ms, a
    /// seventieth.
    static let pollInterval = 0.1

    /// Runs the child until it has taken `records` input records (at most 600 s), then stops
    /// it. `broker`: the embedded broker's process, whose CPU in the window is taken too.
    /// Returns the rate and CPU over the window.
    static func measure(_ run: Run, records: Int, broker: Int32? = nil) throws -> ClientCost {
        // Each build with its own defaults: run where no settings file is, so that only the
        // settings above differ from them.
        let child = try ZoneStreamProcess(
            run.arguments, executable: run.executable, directory: FileManager.default.temporaryDirectory)
        let port = child.httpPort()
        defer { child.signal(SIGKILL) }
        guard let port else {
            throw BenchError("bench: \(run.executable.path) did not start: \(child.output.suffix(800))")
        }
        let pid = child.pid
        var window = RateWindow(total: records, broker: broker) { RateWindow.Usage.of(pid: pid) }
        let deadline = Date().addingTimeInterval(600)
        var count = 0
        while count < records {
            guard child.isRunning else {
                throw BenchError(
                    "bench: \(run.executable.path) stopped at \(count) records: \(child.output.suffix(800))")
            }
            guard Date() < deadline else {
                throw BenchError("bench: \(run.executable.path) took \(count) of \(records) records in 600 s")
            }
            Thread.sleep(forTimeInterval: pollInterval)
            count = recordsIn(port: port) ?? count
            window.note(count: count)
        }
        guard window.isMeasured else {
            throw BenchError(
                "bench: \(run.executable.path) took the middle eight tenths of \(records) records between two reads of its count (\(pollInterval) s apart): too few records to measure its rate; give it more"
            )
        }
        let cost = window.cost()
        child.signal(SIGTERM)
        return cost
    }

    /// `zonestream_records_in_total` as the child on `port` reports it (nil when not read).
    static func recordsIn(port: Int) -> Int? {
        guard let text = try? LoopbackHTTPClient.get(port: port, path: "/metrics", timeoutSeconds: 2).body else {
            return nil
        }
        return recordsIn(metrics: text)
    }

    /// `zonestream_records_in_total` in a Prometheus text exposition (nil when absent).
    static func recordsIn(metrics text: String) -> Int? {
        let name = "zonestream_records_in_total"
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let rest = line.dropFirst(name.count)
            guard rest.first == " " || rest.first == "{", let value = rest.split(separator: " ").last else { continue }
            return Double(value).map { Int($0) }
        }
        return nil
    }
}

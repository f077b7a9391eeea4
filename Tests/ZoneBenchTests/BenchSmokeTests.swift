import Foundation
import Testing
import ZoneBench
import ZoneHarness
import ZoneSimulation
import ZoneTestSupport

/// `zonestream bench --smoke`: the benchmark runs end to end and writes its results
/// (the numbers of a smoke run mean nothing; the real run is in benchmarks/README.md).
@Suite(.processSuite(.long), .serialized, .timeLimit(.minutes(10)))
struct BenchSmokeTests {
    @Test func benchSmokeRunWritesResults() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try ZoneStreamProcess.runToExit(
            ["bench", "--smoke", "--partitions", "4", "--output", directory.path], seconds: 480)
        #expect(status == 0, "\(output.suffix(1000))")
        let data = try Data(contentsOf: directory.appendingPathComponent("bench.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((report["records"] as? Int) == 20_000)
        #expect((report["zoneStreamRecordsPerSecond"] as? Double ?? 0) > 0)
        #expect((report["ceilingRecordsPerSecond"] as? Double ?? 0) > 0)
        // The percentile curve: p0 to p99.9 and the maximum, never decreasing.
        let curve = report["latencyPercentilesMs"] as? [[Double]] ?? []
        #expect(curve.count == 302 && curve.first?[0] == 0 && curve.last?[0] == 100)
        #expect(zip(curve, curve.dropFirst()).allSatisfy { $0[1] <= $1[1] })
        // The latency floor (the Kafka path alone, same traffic) in the same run.
        let floorCurve = report["latencyFloorPercentilesMs"] as? [[Double]] ?? []
        #expect(floorCurve.count == 302 && zip(floorCurve, floorCurve.dropFirst()).allSatisfy { $0[1] <= $1[1] })
        #expect((report["latencyFloorP50Ms"] as? Double ?? 0) > 0)
        // Live views on and off, alternated.
        let gym = try #require(report["gym"] as? [String: Any])
        let runs = (gym["liveViewRuns"] as? [[String: Any]] ?? []).compactMap { $0["liveViews"] as? Bool }
        #expect(runs == [true, false, false, true, true, false])
        // What each client's records cost in CPU, beside its rate.
        for client in ["zoneStreamCost", "floorCost", "bareConsumerCost"] {
            let cost = gym[client] as? [String: Any] ?? [:]
            #expect((cost["cpuSecondsPerMillionRecords"] as? Double ?? 0) > 0, "\(client): \(cost)")
            #expect((cost["coresBusy"] as? Double ?? 0) > 0, "\(client): \(cost)")
            #expect(cost["pageFaultsPerMillionRecords"] is Double, "\(client): \(cost)")
        }
        // Three rounds: each client's rates and the ratios, with their median and spread.
        for figure in [
            "zoneStreamRates", "zoneStreamWithoutLiveViewsRates", "floorRates", "bareConsumerRates", "ratioToFloor",
            "ratioToBareConsumer",
        ] {
            let spread = gym[figure] as? [String: Any] ?? [:]
            #expect((spread["runs"] as? [Any])?.count == 3, "\(figure): \(spread)")
            #expect((spread["median"] as? Double ?? 0) > 0 && spread["spread"] is Double, "\(figure): \(spread)")
        }
        // The floor wrote ZoneStream's own outputs again: as many, of their mean size.
        #expect((gym["outputRecords"] as? Int ?? 0) > 0 && (gym["outputMeanBytes"] as? Int ?? 0) > 0)
        let svg = try String(contentsOf: directory.appendingPathComponent("bench.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("polyline"))
        for label in [
            "records/s", "seconds since the first record", "goal 1 M records/s", "Kafka I/O floor", "bare consumer",
            "percentile", "goal p99 &lt; 25 ms", "Machine:", "partitions", "Kafka path alone (floor)",
        ] {
            #expect(svg.contains(label), "bench.svg lacks \(label)")
        }
    }

    /// `zonestream bench latency`: the latency floor and ZoneStream on the same paced traffic,
    /// each reading every zone change, with a property set on ZoneStream's clients.
    /// `bench builds`: this build and another (the same binary behind a script, as a build at
    /// another path) as `run` children against one floor, the other reading the coaches' class
    /// plans. Three classes of records (about 270,000): a release build takes one (about 90,000)
    /// within a single 100 ms read of its count, too few to measure.
    @Test func buildsBenchMeasuresEachBuildAgainstOneFloor() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zs-builds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let older = directory.appendingPathComponent("older.sh")
        try """
        #!/bin/bash
        exec "\(BrokerProcess.executable.path)" "$@"
        """.write(to: older, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: older.path)
        let report = directory.appendingPathComponent("builds.json")
        let (status, output) = try ZoneStreamProcess.runToExit(
            [
                "bench", "builds", "--against", "older=\(older.path)", "--class-plans-for", "older", "--gym-records",
                "200000", "--rounds", "1", "--broker-partitions", "4", "--report", report.path,
            ], seconds: 240)
        #expect(status == 0, "\(output.suffix(1000))")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let builds = object?["builds"] as? [[String: Any]] ?? []
        #expect(builds.compactMap { $0["name"] as? String } == ["this", "older"])
        #expect(builds.compactMap { $0["readsClassPlans"] as? Bool } == [false, true])
        #expect(((object?["mix"] as? [String: Any])?["classPlans"] as? Int ?? 0) > 0)
        for build in builds {
            let rate = (build["recordsPerSecond"] as? [String: Any])?["median"] as? Double ?? 0
            let cpu = (build["cpuSecondsPerMillionRecords"] as? [String: Any])?["median"] as? Double ?? 0
            let brokerCPU = (build["brokerCPUSecondsPerMillionRecords"] as? [String: Any])?["runs"] as? [Double] ?? []
            #expect(rate > 0 && cpu > 0, "\(build)")
            // The embedded broker's CPU in each run's window: one figure per run, none negative.
            #expect(brokerCPU.count == 1 && brokerCPU.allSatisfy { $0 >= 0 }, "\(build)")
        }
        #expect(((object?["floorRecordsPerSecond"] as? [String: Any])?["median"] as? Double ?? 0) > 0)
        let floorBrokerCPU = (object?["floorBrokerCPUSecondsPerMillionRecords"] as? [String: Any])?["runs"] as? [Double]
        #expect(floorBrokerCPU?.count == 1)
    }

    /// `bench memory`: the growth per session, then a restart's restore peak against it; the
    /// sessions follow plans of their own (`bench`'s own run measures sessions without).
    @Test func memoryBenchMeasuresARestore() throws {
        let (status, output) = try ZoneStreamProcess.runToExit(
            ["bench", "memory", "--sessions", "300", "--broker-partitions", "2", "--plan-steps", "20"], seconds: 150)
        #expect(status == 0, "\(output.suffix(1000))")
        #expect(output.contains("bench memory: RSS per live session: "), "\(output.suffix(1000))")
        #expect(output.contains("bench memory: restore of 300 sessions after SIGKILL: peak "), "\(output.suffix(1000))")
    }

    @Test func latencyBenchMeasuresZoneStreamAndTheFloor() throws {
        let (status, output) = try ZoneStreamProcess.runToExit(
            [
                "bench", "latency", "--rate", "2000", "--seconds", "2", "--topic-partitions", "4",
                "--kafka-property", "linger.ms=2",
            ], seconds: 120)
        #expect(status == 0, "\(output.suffix(1000))")
        #expect(output.contains("ZoneStream's librdkafka properties: linger.ms=2"))
        for name in ["floor:      ", "ZoneStream: "] {
            let line = try #require(
                output.split(separator: "\n").first { $0.contains("run 1, \(name)") }, "\(output.suffix(1000))")
            // Every crossing sample produced after the warm-up comes back as one zone change read
            // ("over READ of PRODUCED zone changes"); 2 s at 2000 samples/s crosses a few hundred.
            let counts = line.split(separator: " over ").last?.split(separator: " ").prefix(3) ?? []
            #expect(
                counts.count == 3 && counts[1] == "of" && counts[0] == counts[2] && (Int(counts[0]) ?? 0) >= 100,
                "\(line)")
        }
    }

    /// `bench latency --clients floor` needs the size to pad to, and says so before anything starts.
    @Test func latencyBenchRefusesFloorAloneWithoutItsOutputSize() throws {
        let (status, output) = try ZoneStreamProcess.runToExit(["bench", "latency", "--clients", "floor"], seconds: 30)
        #expect(status != 0)
        #expect(output.contains("--floor-output-bytes"), "\(output.suffix(500))")
        #expect(!output.contains("latency bench: broker"), "\(output.suffix(500))")
    }

    /// `bench latency --clients floor`: the floor alone, its outputs padded to the given size.
    @Test func latencyBenchMeasuresTheFloorAlone() throws {
        let (status, output) = try ZoneStreamProcess.runToExit(
            [
                "bench", "latency", "--rate", "2000", "--seconds", "2", "--topic-partitions", "4", "--clients", "floor",
                "--floor-output-bytes", "300",
            ], seconds: 120)
        #expect(status == 0, "\(output.suffix(1000))")
        #expect(!output.contains("ZoneStream: "), "\(output.suffix(1000))")
        let line = try #require(
            output.split(separator: "\n").first { $0.contains("run 1, floor: ") }, "\(output.suffix(1000))")
        #expect(line.contains("zone changes of 300 bytes"), "\(line)")
    }

    /// `bench latency --bootstrap-servers` on noida-db (the mock answers no CreateTopics): the
    /// run creates topics of its own there, and ZoneStream alone reads every zone change.
    @Test(arguments: BrokerKind.noidaOnly)
    func latencyBenchRunsOnAKafkaCluster(_ kind: BrokerKind) throws {
        let broker = try TestBroker(kind)
        defer { broker.stop() }
        let (status, output) = try ZoneStreamProcess.runToExit(
            [
                "bench", "latency", "--bootstrap-servers", broker.bootstrapServers, "--rate", "2000", "--seconds", "2",
                "--topic-partitions", "4", "--clients", "zonestream",
            ], seconds: 120)
        #expect(status == 0, "\(output.suffix(1000))")
        #expect(output.contains("latency bench: broker \(broker.bootstrapServers)"), "\(output.suffix(1000))")
        #expect(!output.contains("floor: "), "\(output.suffix(1000))")
        let line = try #require(
            output.split(separator: "\n").first { $0.contains("run 1, ZoneStream: ") }, "\(output.suffix(1000))")
        let counts = line.split(separator: " over ").last?.split(separator: " ").prefix(3) ?? []
        #expect(
            counts.count == 3 && counts[1] == "of" && counts[0] == counts[2] && (Int(counts[0]) ?? 0) >= 100, "\(line)")
    }

    /// `benchmarks/latency-on-noida-db.sh`: each client on a fresh noida-db of its own, the
    /// medians printed and written, and every noida-db it started stopped.
    @Test(arguments: BrokerKind.noidaOnly)
    func latencyOnNoidaDBScriptMeasuresBothClients(_ kind: BrokerKind) throws {
        let results = FileManager.default.temporaryDirectory.appendingPathComponent(
            "zs-latency-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: results) }
        let (status, printed) = try ChildProcess.run(
            "/usr/bin/timeout",
            [
                "240", "bash", SchemaValidator.root.appendingPathComponent("benchmarks/latency-on-noida-db.sh").path,
                "1", "--rate", "2000", "--seconds", "2", "--topic-partitions", "4",
            ],
            environment: ["ZONESTREAM": BrokerProcess.executable.path, "LATENCY_RESULTS": results.path])
        #expect(status == 0, "\(printed.suffix(1500))")
        let pids = printed.split(separator: "\n").compactMap { line -> Int32? in
            guard let range = line.range(of: "(PID ") else { return nil }
            return Int32(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(pids.count == 2, "\(printed.suffix(1500))")
        for pid in pids { #expect(kill(pid, 0) != 0, "noida-db \(pid) is still running") }
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: results)) as? [String: Any],
            "\(printed.suffix(1500))")
        for client in ["zoneStream", "floor"] {
            let median = try #require(report[client + "Median"] as? [String: Double], "\(report)")
            #expect((median["p50Ms"] ?? 0) > 0 && (median["p99Ms"] ?? 0) >= (median["p50Ms"] ?? 0), "\(report)")
            #expect((report[client + "Runs"] as? [Any])?.count == 1)
        }
    }
}

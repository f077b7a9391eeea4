import Foundation

/// Peer stream processors run over the same preloaded gym traffic as ZoneStream, in the same
/// measurement: each does the heart-rate half of ZoneStream's job (benchmarks/peers/NAME), runs
/// as a child process in its own pinned environment and reports one JSON line. Each is run
/// `rounds` times, like ZoneStream, and read against ZoneStream's rate and CPU.
enum PeerRun {
    /// The peers `zonestream bench --peer` knows, and whether each needs a broker that creates
    /// topics when asked (the embedded broker cannot).
    static let known: [(name: String, needsTopicCreation: Bool)] = [
        ("quixstreams", false), ("bytewax", false), ("faust", true), ("pathway", false),
    ]

    static func needsTopicCreation(_ peer: String) -> Bool {
        known.first { $0.name == peer }?.needsTopicCreation ?? false
    }

    /// How `peer` runs its job, for the report.
    static func howItRuns(_ peer: String, onMock: Bool) -> String {
        switch peer {
        case "quixstreams":
            "a streaming dataframe, stateful=True (RocksDB), commit every 1 s; "
                + (onMock ? "no changelog topics (the embedded broker cannot create them)" : "changelog topics on")
        case "bytewax":
            "KafkaSource (tail=False over the preload, tail=True for latency), stateful_flat_map, KafkaSink; "
                + "one worker, no recovery store"
        case "pathway":
            "pw.io.kafka.read (raw, with metadata, commit every 100 ms), groupby(session).reduce with a stateful_many "
                + "reducer, to_stream, flatten, pw.io.kafka.write; one worker thread, no persistence"
        case "faust":
            "an agent over the input topic, a Table (in memory, its changelog topic on), sends to the output topic; "
                + "one worker, producer linger 5 ms"
        default: ""
        }
    }

    struct Figures: Codable {
        var peer: String
        var records: Int
        var rounds: Int
        var recordsPerSecond: Spread
        /// CPU seconds the peer's process used per million records, over the same window.
        var cpuSecondsPerMillionRecords: Spread
        var zoneChanges: Int
        var peakRSSBytes: Int
        /// ZoneStream's rate over the peer's (medians), and its records per CPU-second over the
        /// peer's: how far ahead ZoneStream is per core.
        var zoneStreamOverPeer: Double
        var zoneStreamOverPeerPerCore: Double
        /// How the peer kept its state: on the embedded broker without changelog topics (it
        /// cannot create them); on a real broker as shipped.
        var stateBackedByChangelog: Bool
    }

    /// One run's report line, as zones_job.py prints it.
    struct Line: Decodable {
        var records: Int
        var recordsPerSecond: Double
        var cpuSeconds: Double
        var zoneChanges: Int
        var peakRSSBytes: Int

        private enum CodingKeys: String, CodingKey {
            case records, recordsPerSecond = "records_per_second", cpuSeconds = "cpu_seconds",
                zoneChanges = "zone_changes", peakRSSBytes = "peak_rss_bytes"
        }
    }

    /// The last JSON object line of a peer's standard output (a framework may print escape
    /// codes or banners around it).
    static func reportLine(in text: String) -> Line? {
        for line in text.split(separator: "\n").reversed() {
            guard let start = line.firstIndex(of: "{") else { continue }
            if let parsed = try? JSONDecoder().decode(Line.self, from: Data(line[start...].utf8)) { return parsed }
        }
        return nil
    }

    /// `peer` over `records` records of `input`, `rounds` times, each time as a new consumer
    /// group; read against ZoneStream's median rate and CPU per million records.
    static func measure(
        peer: String, bootstrapServers: String, input: String, output: String, records: Int, rounds: Int,
        onMock: Bool, against zoneStream: ClientCost, zoneStreamRecordsPerSecond: Double
    ) throws -> Figures {
        var lines: [Line] = []
        for round in 1...max(1, rounds) {
            let line = try runOnce(
                peer: peer, bootstrapServers: bootstrapServers, input: input, output: output, records: records,
                onMock: onMock, group: "bench-peer-\(peer)-\(Int(Date().timeIntervalSince1970))-\(round)")
            print(
                String(
                    format: "bench: peer %@ round %d: %.0f records/s, %.2f CPU-s per million records", peer, round,
                    line.recordsPerSecond, line.cpuSeconds * 1e6 / Double(max(1, line.records))))
            lines.append(line)
        }
        let rates = Spread(lines.map(\.recordsPerSecond))
        let cpu = Spread(lines.map { $0.cpuSeconds * 1e6 / Double(max(1, $0.records)) })
        let figures = Figures(
            peer: peer, records: records, rounds: lines.count, recordsPerSecond: rates,
            cpuSecondsPerMillionRecords: cpu, zoneChanges: lines.last?.zoneChanges ?? 0,
            peakRSSBytes: lines.map(\.peakRSSBytes).max() ?? 0,
            zoneStreamOverPeer: zoneStreamRecordsPerSecond / max(rates.median, 1e-9),
            zoneStreamOverPeerPerCore: cpu.median / max(zoneStream.cpuSecondsPerMillionRecords, 1e-9),
            stateBackedByChangelog: !onMock)
        print(
            String(
                format: "bench: peer %@ %.0f records/s, peak RSS %.0f MB; ZoneStream / %@ = %.1f, per core %.1f", peer,
                rates.median, Double(figures.peakRSSBytes) / 1_048_576, peer, figures.zoneStreamOverPeer,
                figures.zoneStreamOverPeerPerCore))
        return figures
    }

    /// One run of the peer's run.sh, which installs its pinned environment on first use.
    static func runOnce(
        peer: String, bootstrapServers: String, input: String, output: String, records: Int, onMock: Bool,
        group: String
    ) throws -> Line {
        let script = URL(fileURLWithPath: "benchmarks/peers/\(peer)/run.sh")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw BenchError("bench: --peer \(peer): \(script.path) not found (run bench from the repository's root)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments =
            [
                script.path, "--bootstrap-servers", bootstrapServers, "--input", input, "--output", output,
                "--records", "\(records)", "--group", group, "--state-dir",
                NSTemporaryDirectory() + "zonestream-bench-\(group)",
            ]
            + (onMock ? ["--mock"] : [])
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = reportLine(in: text) else {
            throw BenchError(
                "bench: the \(peer) peer printed no report (exit status \(process.terminationStatus)): \(text.suffix(500))"
            )
        }
        guard process.terminationStatus == 0 else {
            throw BenchError("bench: the \(peer) peer read \(line.records) of \(records) records before its timeout")
        }
        return line
    }
}

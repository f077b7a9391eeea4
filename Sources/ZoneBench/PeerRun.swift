import Foundation

/// A peer stream processor run over the same preloaded gym traffic as ZoneStream, in the
/// same run: today Quix Streams (benchmarks/peers/quixstreams), doing the heart-rate half of
/// ZoneStream's job. It runs as a child process and reports one JSON line.
enum PeerRun {
    /// The peers `zonestream bench --peer` knows.
    static let known = ["quixstreams"]

    struct Figures: Codable {
        var peer: String
        var records: Int
        var recordsPerSecond: Double
        var zoneChanges: Int
        var peakRSSBytes: Int
        /// How the peer kept its state: on the mock, without changelog topics (the mock
        /// cannot create them); on a real broker, as shipped (changelog topics on).
        var stateBackedByChangelog: Bool
    }

    /// The peer's own report line, as zones_job.py prints it.
    private struct Line: Decodable {
        var records: Int
        var recordsPerSecond: Double
        var zoneChanges: Int
        var peakRSSBytes: Int

        private enum CodingKeys: String, CodingKey {
            case records, recordsPerSecond = "records_per_second", zoneChanges = "zone_changes", peakRSSBytes =
                "peak_rss_bytes"
        }
    }

    static func measure(
        peer: String, bootstrapServers: String, input: String, output: String, records: Int, onMock: Bool,
        against zoneStreamRecordsPerSecond: Double
    ) throws -> Figures {
        let script = URL(fileURLWithPath: "benchmarks/peers/\(peer)/run.sh")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw BenchError("bench: --peer \(peer): \(script.path) not found (run bench from the repository's root)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments =
            [
                script.path, "--bootstrap-servers", bootstrapServers, "--input", input, "--output", output,
                "--records", "\(records)", "--group", "bench-peer-\(peer)-\(Int(Date().timeIntervalSince1970))",
                "--state-dir",
                NSTemporaryDirectory() + "zonestream-bench-\(peer)-\(ProcessInfo.processInfo.processIdentifier)",
            ]
            + (onMock ? ["--mock"] : [])
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let last = text.split(separator: "\n").last,
            let line = try? JSONDecoder().decode(Line.self, from: Data(last.utf8))
        else {
            throw BenchError(
                "bench: the \(peer) peer printed no report (exit status \(process.terminationStatus)): \(text.suffix(500))"
            )
        }
        guard process.terminationStatus == 0 else {
            throw BenchError("bench: the \(peer) peer read \(line.records) of \(records) records before its timeout")
        }
        print(
            String(
                format: "bench: peer %@ %.0f records/s, peak RSS %.0f MB; ZoneStream / %@ = %.1f", peer,
                line.recordsPerSecond, Double(line.peakRSSBytes) / 1_048_576, peer,
                zoneStreamRecordsPerSecond / line.recordsPerSecond))
        return Figures(
            peer: peer, records: line.records, recordsPerSecond: line.recordsPerSecond, zoneChanges: line.zoneChanges,
            peakRSSBytes: line.peakRSSBytes, stateBackedByChangelog: !onMock)
    }
}

import Foundation
import ZoneHTTP
import ZoneHarness

/// The processor instances of the failover benchmark: the first one stays throughout (the
/// sessions are watched through it); later ones are added and removed by the steps.
struct FailoverGroup {
    let bootstrap: String
    let executable: URL
    /// More `run` arguments for every instance (the processing guarantee).
    let extra: [String]
    let group = "failover-\(Int(Date().timeIntervalSince1970))"
    private(set) var members: [ZoneStreamProcess] = []

    init(bootstrap: String, executable: URL, extra: [String] = []) {
        self.bootstrap = bootstrap
        self.executable = executable
        self.extra = extra
    }

    mutating func add() throws {
        members.append(
            try ZoneStreamProcess.processor(bootstrap: bootstrap, group: group, extra: extra, executable: executable))
    }

    /// Stops the newest instance with `signal` (never the first).
    mutating func remove(_ signal: Int32) {
        guard members.count > 1, let last = members.popLast() else { return }
        last.signal(signal, waitSeconds: 30)
    }

    func observerPort() throws -> Int {
        guard let port = members.first?.httpPort() else { throw BenchError("the first instance has no endpoint") }
        return port
    }

    /// Waits until every instance answers `/ready` with 200 (at most 60 s).
    func waitUntilReady() throws {
        let deadline = Date().addingTimeInterval(60)
        for member in members {
            guard let port = member.httpPort() else { throw BenchError("an instance has no endpoint") }
            while (try? LoopbackHTTPClient.get(port: port, path: "/ready").status) != 200 {
                guard Date() < deadline else { throw BenchError("an instance was not ready within 60 s") }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// Where each instance's log is now, to count what it logs after.
    func logMarks() -> [ObjectIdentifier: Int] {
        Dictionary(uniqueKeysWithValues: members.map { (ObjectIdentifier($0), $0.output.count) })
    }

    /// Changelog records re-read, partitions taken over from a standby and partitions
    /// restored in full by every instance since `marks` (from their "partition restored" log
    /// lines, which carry `standby_sessions` when a standby was used), and the longest
    /// rebalance an instance logged (`rebalance_ms` of "partitions assigned").
    func restoresSince(_ marks: [ObjectIdentifier: Int]) -> (
        records: Int, fromStandby: Int, inFull: Int, longestRebalanceMs: Int?
    ) {
        var result = (records: 0, fromStandby: 0, inFull: 0, longestRebalanceMs: Int?.none)
        for member in members {
            let lines = member.output.dropFirst(marks[ObjectIdentifier(member)] ?? 0).split(separator: "\n")
            for line in lines where line.contains("partitions assigned") {
                guard let range = line.range(of: "rebalance_ms="),
                    let ms = Int(line[range.upperBound...].prefix(while: \.isNumber))
                else { continue }
                result.longestRebalanceMs = max(result.longestRebalanceMs ?? 0, ms)
            }
            for line in lines where line.contains("partition restored") {
                if line.contains("standby_sessions=") { result.fromStandby += 1 } else { result.inFull += 1 }
                if let range = line.range(of: "records=") {
                    result.records += Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
                }
            }
        }
        return result
    }
}

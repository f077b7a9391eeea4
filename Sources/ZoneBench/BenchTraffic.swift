import Foundation

/// Sample records for the benchmark, made fast and without the simulator's string work:
/// `sessions` sessions, each a `session_start` then heart-rate samples one second apart.
enum BenchTraffic {
    static func sessionID(_ index: Int, prefix: String) -> String { "\(prefix)\(index)" }

    static func start(_ session: String, ts: Int64) -> [UInt8] {
        Array("{\"type\":\"session_start\",\"session\":\"\(session)\",\"ts\":\(ts),\"activity\":\"cycling\"}".utf8)
    }

    /// A heart-rate sample; every `changeEvery`-th sample of a session crosses a zone boundary.
    static func sample(_ session: String, ts: Int64, step: Int, changeEvery: Int = 10) -> [UInt8] {
        let value = (step / changeEvery) % 2 == 0 ? 120 : 140
        return Array("{\"type\":\"sample\",\"session\":\"\(session)\",\"ts\":\(ts),\"quantity\":\"heart_rate\",\"value\":\(value + step % 5)}".utf8)
    }
}

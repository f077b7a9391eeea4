import Foundation

/// Sample records for the benchmark, made fast and without the simulator's string work:
/// `sessions` sessions, each a `session_start` then heart-rate samples one second apart.
enum BenchTraffic {
    static func sessionID(_ index: Int, prefix: String) -> String { "\(prefix)\(index)" }

    static func start(_ session: String, ts: Int64) -> [UInt8] {
        Array("{\"type\":\"session_start\",\"session\":\"\(session)\",\"ts\":\(ts),\"activity\":\"cycling\"}".utf8)
    }

    /// A `session_start` with a plan of `steps` one-minute steps (an even number, at most 200),
    /// alternating work in heart-rate zones 4-5 with at least 200 W and recovery in zones 1-2,
    /// written as repeat blocks of up to 50 pairs.
    static func start(_ session: String, ts: Int64, planSteps steps: Int) -> [UInt8] {
        let pair =
            #"{"purpose":"work","duration_ms":60000,"target":{"heart_rate":{"zones":[4,5]},"cycling_power":{"min":200}}},"#
            + #"{"purpose":"recovery","duration_ms":60000,"target":{"heart_rate":{"zones":[1,2]}}}"#
        var blocks: [String] = []
        var pairs = steps / 2
        while pairs > 0 {
            let repeats = min(50, pairs)
            blocks.append(#"{"repeat":\#(repeats),"steps":[\#(pair)]}"#)
            pairs -= repeats
        }
        let plan = #"{"plan":"bench-\#(steps)","steps":[\#(blocks.joined(separator: ","))]}"#
        return Array(
            #"{"type":"session_start","session":"\#(session)","ts":\#(ts),"activity":"cycling","plan":\#(plan)}"#.utf8)
    }

    /// A heart-rate sample; every `changeEvery`-th sample of a session crosses a zone boundary
    /// (the first one enters a zone), and only those have a value of exactly 120 or 140 (the
    /// others 121-124 or 141-144), so the latency floor can tell them by their bytes
    /// (``crossesZone(_:)``). `phase` (below `changeEvery`) shifts which samples cross, so
    /// sessions with different phases cross at different moments.
    static func sample(_ session: String, ts: Int64, step: Int, changeEvery: Int = 10, phase: Int = 0) -> [UInt8] {
        let shifted = step + phase
        let value = (shifted / changeEvery) % 2 == 0 ? 120 : 140
        let jitter = step == 0 || shifted % changeEvery == 0 ? 0 : 1 + step % 4
        return Array(
            "{\"type\":\"sample\",\"session\":\"\(session)\",\"ts\":\(ts),\"quantity\":\"heart_rate\",\"value\":\(value + jitter)}"
                .utf8)
    }

    /// Whether a ``sample(_:ts:step:changeEvery:phase:)`` is one that crosses a zone boundary: its
    /// value ends in `:120}` or `:140}`.
    static func crossesZone(_ value: UnsafeRawBufferPointer) -> Bool {
        guard value.count >= 5 else { return false }
        let tail = value[(value.count - 5)...]
        return tail.elementsEqual(":120}".utf8) || tail.elementsEqual(":140}".utf8)
    }
}

/// When the paced latency traffic's sessions cross their zone boundaries.
public enum LatencyTraffic: String, Sendable, CaseIterable {
    /// Each session at its own moment, as the members of a class do: a tenth of the sessions
    /// in every 10 ms step, so zone changes come at an even rate.
    case spread
    /// Every session in the same 10 ms step, every 100 ms: bursts of one zone change per
    /// session, the worst case for the tail.
    case burst
}

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
        let plan = #"{"plan":"bench-\#(steps)","steps":\#(planSteps(steps))}"#
        return Array(
            #"{"type":"session_start","session":"\#(session)","ts":\#(ts),"activity":"cycling","plan":\#(plan)}"#.utf8)
    }

    /// A `session_start` of a member of class `sessionClass`, who follows the class's plan.
    static func start(_ session: String, ts: Int64, sessionClass: String) -> [UInt8] {
        Array(
            #"{"type":"session_start","session":"\#(session)","ts":\#(ts),"activity":"cycling","class":"\#(sessionClass)"}"#
                .utf8)
    }

    /// The `class-plans` record of `sessionClass`: the plan of ``start(_:ts:planSteps:)`` with
    /// `steps` steps (rounded up to an even number), starting at `ts`.
    static func classPlan(_ sessionClass: String, ts: Int64, steps: Int) -> [UInt8] {
        Array(
            #"{"class":"\#(sessionClass)","start_ts":\#(ts),"plan":"bench-class-\#(steps)","steps":\#(planSteps(steps))}"#
                .utf8)
    }

    /// `steps` one-minute steps as a plan's `steps` (an even number, at most 200): work in
    /// heart-rate zones 4-5 with at least 200 W and recovery in zones 1-2 in turn, written as
    /// repeat blocks of up to 50 pairs.
    private static func planSteps(_ steps: Int) -> String {
        let pair =
            #"{"purpose":"work","duration_ms":60000,"target":{"heart_rate":{"zones":[4,5]},"cycling_power":{"min":200}}},"#
            + #"{"purpose":"recovery","duration_ms":60000,"target":{"heart_rate":{"zones":[1,2]}}}"#
        var blocks: [String] = []
        var pairs = (steps + 1) / 2
        while pairs > 0 {
            let repeats = min(50, pairs)
            blocks.append(#"{"repeat":\#(repeats),"steps":[\#(pair)]}"#)
            pairs -= repeats
        }
        return "[" + blocks.joined(separator: ",") + "]"
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

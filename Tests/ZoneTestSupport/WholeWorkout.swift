/// A whole workout as a gateway sends it: a start, five heart-rate samples a second apart and
/// an end, for tests that need finished workouts rather than particular figures.
public enum WholeWorkout {
    /// When every such workout starts.
    public static let start: Int64 = 1_717_200_000_000

    /// The workout's records (values for `workout-events`, keyed by `session`).
    public static func events(_ session: String, person: String) -> [String] {
        var events = [
            #"{"type":"session_start","session":"\#(session)","ts":\#(start),"person":"\#(person)","activity":"cycling"}"#
        ]
        for second in 0..<5 {
            events.append(
                #"{"type":"sample","session":"\#(session)","ts":\#(start + Int64(second) * 1000),"quantity":"heart_rate","value":140}"#
            )
        }
        events.append(#"{"type":"session_end","session":"\#(session)","ts":\#(start + 5000)}"#)
        return events
    }
}

/// The sums a session's effort is worked out from: its heart-rate effort as credited, and its
/// power's watts times milliseconds. Copied out of a session in a few words; the figures
/// (points, calories in decimal arithmetic, kilojoules) are worked out only when read, so a
/// live view published at every commit interval costs no arithmetic until it is served.
struct EffortSums: Sendable, Equatable {
    /// Present when the session has an accepted heart-rate sample and a known maximum.
    let heartRate: HeartRateEffort.Credited?
    /// Present when the session has a power sample (and a finite sum).
    let wattMilliseconds: Double?

    var effort: WorkoutEffort {
        WorkoutEffort(
            heartRate: heartRate?.summary, kilojoulesTenths: wattMilliseconds.map(WorkoutEffort.kilojoulesTenths))
    }
}

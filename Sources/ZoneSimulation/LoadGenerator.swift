import Foundation

/// Turns a ``TrafficPlan`` into records, second by simulated second, deterministically.
/// Faults (dropouts, duplicates, late and malformed records) are injected on samples only.
public struct LoadGenerator: Sendable {
    public let plan: TrafficPlan
    private var gym: GymClass
    private var random: SplitMix64
    private var second = 0
    private var series: [String: (ts: Int64, values: [String])] = [:]

    public init(plan: TrafficPlan) {
        self.plan = plan
        var gym = GymClass(
            memberCount: plan.members, durationSeconds: plan.sessionSeconds, seed: plan.seed, startMs: plan.startMs)
        gym.renameSessions(prefix: plan.sessionPrefix, personPrefix: plan.personPrefix)
        self.gym = gym
        random = SplitMix64(seed: plan.seed &+ 0x5eed)
    }

    /// Profiles to publish before the events.
    public func profiles(topic: String) -> [GymClass.Record] { gym.profiles(topic: topic) }

    /// The class plans to publish before the events.
    public func classPlans(topic: String) -> [GymClass.Record] { gym.classPlans(topic: topic) }

    /// The classes the members belong to (`<prefix>/spin`, `<prefix>/hiit`).
    public var classNames: [String] { gym.classNames }

    /// Whether every second of the class has been generated.
    public var isFinished: Bool { second > plan.sessionSeconds }

    /// The records of the next simulated second.
    public mutating func nextSecond(topic: String) -> [GymClass.Record] {
        guard !isFinished else { return [] }
        var output: [GymClass.Record] = []
        for record in gym.events(at: second, topic: topic) {
            let isSample = record.value.hasPrefix("{\"type\":\"sample\"")
            guard isSample else {
                flushSeries(key: record.key, topic: topic, into: &output)
                output.append(record)
                continue
            }
            if plan.seriesLength > 1 && record.value.contains("heart_rate") {
                appendToSeries(record, topic: topic, into: &output)
                continue
            }
            inject(record, into: &output)
        }
        second += 1
        return output
    }

    private mutating func chance(_ fraction: Double) -> Bool {
        fraction > 0 && Double(random.next() % 1_000_000) < fraction * 1_000_000
    }

    private mutating func inject(_ record: GymClass.Record, into output: inout [GymClass.Record]) {
        if chance(plan.dropoutFraction) { return }
        if chance(plan.malformedFraction) {
            output.append(GymClass.Record(topic: record.topic, key: record.key, value: String(record.value.prefix(25))))
            return
        }
        output.append(record)
        if chance(plan.duplicateFraction) { output.append(record) }
        if chance(plan.lateFraction), let late = Self.shifted(record, byMs: -3000) { output.append(late) }
    }

    /// A copy of a sample record with its ts moved.
    static func shifted(_ record: GymClass.Record, byMs offset: Int64) -> GymClass.Record? {
        guard let range = record.value.range(of: "\"ts\":"),
            let end = record.value[range.upperBound...].firstIndex(where: { !$0.isNumber }),
            let ts = Int64(record.value[range.upperBound..<end])
        else { return nil }
        let value = record.value.replacingCharacters(in: range.upperBound..<end, with: String(ts + offset))
        return GymClass.Record(topic: record.topic, key: record.key, value: value)
    }

    private mutating func appendToSeries(_ record: GymClass.Record, topic: String, into output: inout [GymClass.Record])
    {
        guard let valueRange = record.value.range(of: "\"value\":"),
            let end = record.value[valueRange.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }),
            let tsRange = record.value.range(of: "\"ts\":"),
            let tsEnd = record.value[tsRange.upperBound...].firstIndex(where: { !$0.isNumber }),
            let ts = Int64(record.value[tsRange.upperBound..<tsEnd])
        else { return }
        let value = String(record.value[valueRange.upperBound..<end])
        var entry = series[record.key] ?? (ts, [])
        entry.values.append(value)
        series[record.key] = entry
        if entry.values.count >= plan.seriesLength { flushSeries(key: record.key, topic: topic, into: &output) }
    }

    private mutating func flushSeries(key: String, topic: String, into output: inout [GymClass.Record]) {
        guard let entry = series.removeValue(forKey: key), !entry.values.isEmpty else { return }
        let value =
            "{\"type\":\"sample_series\",\"quantity\":\"heart_rate\",\"interval_ms\":1000,"
            + "\"values\":[\(entry.values.joined(separator: ","))],\"session\":\"\(key)\",\"ts\":\(entry.ts)}"
        output.append(GymClass.Record(topic: topic, key: key, value: value))
    }
}

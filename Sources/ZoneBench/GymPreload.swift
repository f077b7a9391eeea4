import ZoneKafka
import ZoneProcessor
import ZoneSimulation

/// The load generator's gym traffic for the benchmark: classes of `members` (heart rate and
/// power, pauses, app zones, multisport sessions, every session finishing) one after another
/// with new session ids, deterministic by seed, until `records` workout events are out; each
/// class's profiles are produced first.
enum GymPreload {
    /// What was produced: workout events by type, and profiles.
    struct Mix: Codable {
        var recordsByType: [String: Int] = [:]
        var profiles = 0
        /// Coaches' class plans published (with ``produce``'s `classPlansTopic`).
        var classPlans = 0
        var sessions = 0
        var records: Int { recordsByType.values.reduce(0, +) }

        var summary: String {
            recordsByType.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
    }

    /// The size of one class: 200 members for 5 minutes give about 90,000 records.
    struct ClassSize {
        var members = 200
        var sessionSeconds = 300
        /// For a smoke run: about 5,000 records.
        static let small = ClassSize(members: 40, sessionSeconds: 120)
    }

    /// Produces whole classes of the load generator's traffic until `records` events, with each
    /// class's members' profiles first; with `classPlansTopic`, each class's coached plans too
    /// (read by a processor whose `topics.class_plans` names that topic).
    static func produce(
        records: Int, classSize: ClassSize = ClassSize(), seed: UInt64, topics: Topics, classPlansTopic: String? = nil,
        producer: KafkaProducer
    ) throws -> Mix {
        let members = classSize.members
        let sessionSeconds = classSize.sessionSeconds
        var mix = Mix()
        var wave = 0
        while mix.records < records {
            var plan = TrafficPlan()
            plan.members = members
            plan.sessionSeconds = sessionSeconds
            plan.seed = seed &+ UInt64(wave)
            plan.sessionPrefix = "gym\(wave)"
            plan.startMs = 1_717_200_000_000 + Int64(wave) * Int64(sessionSeconds + 60) * 1000
            var generator = LoadGenerator(plan: plan)
            for profile in generator.profiles(topic: topics.zoneProfiles) {
                try producer.produce(
                    topic: profile.topic, key: Array(profile.key.utf8), value: Array(profile.value.utf8), tracker: nil)
                mix.profiles += 1
            }
            for classPlan in classPlansTopic.map({ generator.classPlans(topic: $0) }) ?? [] {
                try producer.produce(
                    topic: classPlan.topic, key: Array(classPlan.key.utf8), value: Array(classPlan.value.utf8),
                    tracker: nil)
                mix.classPlans += 1
            }
            mix.sessions += members
            // Whole classes: the last one may overshoot `records` so that every session finishes.
            while !generator.isFinished {
                for record in generator.nextSecond(topic: topics.workoutEvents) {
                    try producer.produce(
                        topic: record.topic, key: Array(record.key.utf8), value: Array(record.value.utf8), tracker: nil)
                    mix.recordsByType[Self.type(of: record.value), default: 0] += 1
                }
                producer.pollDeliveryReports(timeoutMs: 0)
            }
            wave += 1
        }
        try producer.flush(timeoutMs: 120_000)
        return mix
    }

    /// The `type` of a generated event (they all begin with it).
    static func type(of value: String) -> String {
        let prefix = "{\"type\":\""
        guard value.hasPrefix(prefix) else { return "other" }
        return String(value.dropFirst(prefix.count).prefix { $0 != "\"" })
    }
}

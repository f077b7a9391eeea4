import ZoneEngine

/// Who a keyed stage is, as a plain value: its name, topics, cap and the words its log and
/// dead letters use, and its figures among the processor's metrics. What it counts is its
/// ``StageAggregation``.
struct StageRole: Sendable {
    /// Which of the processor's figures are the stage's.
    enum Figures: Sendable {
        case people, classes
    }

    /// The stage's name: its consumer group is `<group_id>.<name>`, its thread `zs-<name>`, its
    /// transactional id `<prefix>-<instance>-<name>`.
    let name: String
    /// Which of the processor's topics the stage reads and keeps its state in.
    let input: OutputContext.InputTopic
    let changelog: OutputContext.InputTopic
    /// The stage's output topic among the processor's topics.
    let output: any KeyPath<Topics, String> & Sendable
    /// The most keys the stage holds over its partitions, and the dead-letter reason past it.
    let capacity: Int
    let limitReason: DeadLetterReason
    /// Says past the cap, to a person reading the log or the dead letter: "persons", "classes".
    let keysName: String
    /// Why an idle key may be removed to make room, for the dead letter's detail.
    let idleRule: String
    let figures: Figures

    /// The person stage's.
    static func people(_ configuration: ProcessorConfiguration) -> StageRole {
        StageRole(
            name: "people", input: .personWorkouts, changelog: .personChangelog, output: \.personSummaries,
            capacity: configuration.maxPersons, limitReason: .personLimit, keysName: "persons",
            idleRule: "none without a workout in the last 28 days", figures: .people)
    }

    /// The class stage's.
    static func classes(_ configuration: ProcessorConfiguration) -> StageRole {
        StageRole(
            name: "classes", input: .classWorkouts, changelog: .classChangelog, output: \.classSummaries,
            capacity: configuration.maxClasses, limitReason: .classLimit, keysName: "classes",
            idleRule: "none whose day ended two days ago", figures: .classes)
    }

    /// Records how many keys the stage holds.
    func recordKeys(_ count: Int, in metrics: ProcessorMetrics) {
        switch figures {
        case .people: metrics.recordPersons(count)
        case .classes: metrics.recordClasses(count)
        }
    }

    /// Counts one key refused past the cap.
    func countRefused(in metrics: ProcessorMetrics) {
        switch figures {
        case .people: metrics.countPersonRefused()
        case .classes: metrics.countClassRefused()
        }
    }

    /// The stage's own figures among `metrics` (summaries, restores, deliveries, lag).
    func stageMetrics(in metrics: ProcessorMetrics) -> StageMetrics {
        switch figures {
        case .people: metrics.people
        case .classes: metrics.classes
        }
    }
}

import Foundation
import Logging
import NIOConcurrencyHelpers
import Synchronization
import ZoneKafka
import ZoneProcessor

/// Reads `zone-changes` and `workouts-finished` from the beginning (no group) and keeps
/// what the demo shows: each session's current zone and the finished workouts.
final class OutputBoard: Sendable {
    private let consumer: KafkaConsumer
    private let state = NIOLockedValueBox<State>(State())
    private let running = Atomic<Bool>(true)
    private let thread = NIOLockedValueBox<JoinableThread?>(nil)

    struct State {
        var zones: [String: [String: (zone: Int, count: Int)]] = [:]
        var finished: [String: FinishedView] = [:]
        var zoneChanges = 0
    }

    /// What the report shows of a `workout_finished` event.
    struct FinishedView: Sendable {
        var person: String
        var activity: String
        var durationS: Int
        var pausedS: Int
        var groups: [(quantity: String, source: String, durationsMs: [Int])]
        var activities: [String]

        init(_ workout: [String: Any]) {
            person = workout["person"] as? String ?? "(no person)"
            activity = workout["activity"] as? String ?? ""
            durationS = (workout["duration_ms"] as? Int ?? 0) / 1000
            pausedS = (workout["paused_ms"] as? Int ?? 0) / 1000
            let zoneGroups = workout["zone_groups"] as? [String: Any] ?? [:]
            groups = ["heart_rate", "cycling_power"].compactMap { quantity in
                guard let group = zoneGroups[quantity] as? [String: Any],
                    let durations = group["zone_durations"] as? [[String: Any]]
                else { return nil }
                let source = (group["configuration"] as? [String: Any])?["source"] as? String ?? ""
                return (quantity, source, durations.map { $0["duration_ms"] as? Int ?? 0 })
            }
            activities = (workout["activities"] as? [[String: Any]] ?? []).map { $0["activity"] as? String ?? "" }
        }
    }

    init(kafka: KafkaConfiguration, logger: Logger) throws {
        consumer = try KafkaConsumer(configuration: kafka, groupID: nil, logger: logger)
        var partitions: [TopicPartition] = []
        for topic in ["zone-changes", "workouts-finished"] {
            for partition in 0..<Int32(try consumer.partitionCount(topic: topic)) {
                partitions.append(TopicPartition(topic: topic, partition: partition, offset: TopicPartition.beginning))
            }
        }
        try consumer.assign(partitions)
    }

    func start() {
        let thread = JoinableThread(name: "zs-demo-board") { [self] in
            while running.load(ordering: .relaxed) {
                consumer.poll(timeoutMs: 100) { record in
                    guard let value = record.value,
                        let object = try? JSONSerialization.jsonObject(with: Data(value)) as? [String: Any],
                        let session = object["session"] as? String
                    else { return }
                    if object["type"] as? String == "zone_change" {
                        let quantity = object["quantity"] as? String ?? ""
                        let zone = (object["current_zone"] as? [String: Any])?["index"] as? Int ?? 0
                        let count = (object["zone_durations"] as? [Any])?.count ?? 0
                        state.withLockedValue { state in
                            state.zoneChanges += 1
                            state.zones[session, default: [:]][quantity] = (zone, count)
                        }
                    } else {
                        let view = FinishedView(object)
                        state.withLockedValue { $0.finished[session] = view }
                    }
                }
            }
        }
        self.thread.withLockedValue { $0 = thread }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread.withLockedValue { $0 }?.join()
        consumer.close()
    }

    var finishedCount: Int { state.withLockedValue { $0.finished.count } }
    var zoneChangeCount: Int { state.withLockedValue { $0.zoneChanges } }

    func liveTable(at second: Int, members: [String]) -> String {
        state.withLockedValue { state in
            var lines = ["— live zones at \(second / 60):\(String(format: "%02d", second % 60)) —"]
            for session in members {
                let zones = state.zones[session] ?? [:]
                func cell(_ quantity: String, _ label: String) -> String {
                    guard let entry = zones[quantity] else {
                        return "".padding(toLength: 16, withPad: " ", startingAt: 0)
                    }
                    let bar =
                        String(repeating: "▮", count: entry.zone)
                        + String(repeating: "·", count: entry.count - entry.zone)
                    return "\(label) z\(entry.zone) \(bar)".padding(toLength: 16, withPad: " ", startingAt: 0)
                }
                lines.append(
                    "  \(session.padding(toLength: 10, withPad: " ", startingAt: 0)) \(cell("heart_rate", "HR"))  \(cell("cycling_power", "PWR"))"
                )
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    func finishedReport() -> String {
        state.withLockedValue { state in
            var lines = ["— finished workouts (minutes per zone) —"]
            for (session, workout) in state.finished.sorted(by: {
                $0.key.localizedStandardCompare($1.key) == .orderedAscending
            }) {
                lines.append(
                    "\(session) \(workout.person), \(workout.activity), \(workout.durationS) s, paused \(workout.pausedS) s"
                )
                for group in workout.groups {
                    lines.append("  \(group.quantity) (\(group.source))")
                    for (index, ms) in group.durationsMs.enumerated() {
                        let bar = String(repeating: "█", count: ms / 5000)
                        lines.append("    z\(index + 1) \(String(format: "%5.1f", Double(ms) / 60000)) min \(bar)")
                    }
                }
                if !workout.activities.isEmpty {
                    lines.append("  activities: " + workout.activities.joined(separator: ", "))
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}

import ArgumentParser
import Foundation
import Logging
import ZoneKafka

/// `loadgen --check`: ZoneStream's outputs read back and compared with the oracle's.
extension LoadgenCommand {
    /// Reads `workouts-finished`, `zone-changes` and `person-summaries` (read_committed) until
    /// every expected output has arrived (or the timeout): each expected finished workout,
    /// zone-change event and person summary must be there, and every copy of it (repeats are
    /// allowed after a failure, unless --exactly-once) must equal the oracle's.
    func checkResults(
        expected: [String: Any], expectedChanges: [String: Any],
        expectedSummaries: [String: PersonSummaryTally.Expectation],
        kafka: KafkaConfiguration, logger: Logger
    ) throws {
        let reader = try OutputReader(kafka: kafka, logger: logger, isolation: "read_committed")
        defer { reader.close() }
        var finished = OutputTally(expected: expected, idField: "session")
        var changes = OutputTally(expected: expectedChanges, idField: "event_id")
        var summaries = PersonSummaryTally(expected: expectedSummaries)
        let deadline = Date().addingTimeInterval(Double(checkTimeoutS))
        let tally: (KafkaRecord) -> Void = { record in
            guard let value = record.value,
                let object = try? JSONSerialization.jsonObject(with: Data(value)) as? [String: Any]
            else { return }
            switch record.topic {
            case "workouts-finished": finished.add(object)
            case "person-summaries": summaries.add(object)
            default: changes.add(object)
            }
        }
        while !(finished.isComplete && changes.isComplete && summaries.isCorrect) && Date() < deadline {
            reader.poll(tally)
        }
        var aborted = ""
        if exactlyOnce {
            // A repeat may come after the last first copy: read on to the end of every partition
            // (for read_committed, the last stable offset: open transactions must end first).
            let end = try reader.endOffsets()
            let complete = reader.readUntil(end, deadline: Date().addingTimeInterval(Double(checkTimeoutS)), tally)
            let everything = try OutputReader(kafka: kafka, logger: logger, isolation: "read_uncommitted")
            defer { everything.close() }
            var uncommitted = 0
            _ = everything.readUntil(end, deadline: Date().addingTimeInterval(Double(checkTimeoutS))) { _ in
                uncommitted += 1
            }
            let committed = reader.recordsRead
            aborted =
                "; exactly-once: \(committed) records read committed, \(uncommitted) read uncommitted "
                + "(\(max(0, uncommitted - committed)) in aborted transactions, hidden)"
                + (complete ? "" : ", end of the topics not reached")
        }
        print(
            "check: \(finished.summary(noun: "finished workouts")); \(changes.summary(noun: "zone changes")); "
                + "\(summaries.summary())\(aborted)")
        for tally in [finished, changes] {
            guard let (id, got) = tally.firstMismatch, let wanted = tally.expected[id] else { continue }
            printMismatch(id: id, expected: wanted, actual: got)
        }
        if let (person, wanted, got) = summaries.firstMismatch {
            printMismatch(id: person, expected: wanted, actual: got)
        }
        guard finished.isCorrect && changes.isCorrect && summaries.isCorrect else { throw ExitCode.failure }
        if exactlyOnce && (finished.repeats > 0 || changes.repeats > 0 || summaries.repeats > 0) {
            throw ExitCode.failure
        }
    }

    private func printMismatch(id: String, expected: Any, actual: Any) {
        func text(_ value: Any) -> String {
            (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
        }
        print("expected \(id): \(text(expected))")
        print("actual   \(id): \(text(actual))")
    }
}

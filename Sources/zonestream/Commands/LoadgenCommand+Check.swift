import ArgumentParser
import Foundation
import Logging
import ZoneKafka

/// `loadgen --check`: ZoneStream's outputs read back and compared with the oracle's.
extension LoadgenCommand {
    /// Reads `workouts-finished`, `zone-changes`, `target-changes`, `person-summaries` and
    /// `class-summaries` (read_committed) until every expected output has arrived (or the
    /// timeout): each expected finished workout, zone and target change, person summary and
    /// class summary must be there, and every copy of it (repeats are allowed after a failure,
    /// unless --exactly-once) must equal the oracle's.
    func checkResults(oracle: LoadOracle, expected: [String: Any], kafka: KafkaConfiguration, logger: Logger) throws {
        let reader = try OutputReader(kafka: kafka, logger: logger, isolation: "read_committed")
        defer { reader.close() }
        var finished = OutputTally(expected: expected, idField: "session")
        var changes = OutputTally(expected: oracle.expectedZoneChanges(), idField: "event_id")
        var targets = OutputTally(expected: oracle.expectedTargetChanges(), idField: "event_id")
        var summaries = SummaryTally.persons(oracle.expectedPersonSummaries())
        var classes = SummaryTally.classDays(oracle.expectedClassSummaries())
        summaries.allowsLateRepeat = !exactlyOnce
        classes.allowsLateRepeat = !exactlyOnce
        let deadline = Date().addingTimeInterval(Double(checkTimeoutS))
        let tally: (KafkaRecord) -> Void = { record in
            guard let value = record.value,
                let object = try? JSONSerialization.jsonObject(with: Data(value)) as? [String: Any]
            else { return }
            switch record.topic {
            case "workouts-finished": finished.add(object)
            case "person-summaries": summaries.add(object)
            case "class-summaries": classes.add(object)
            case "target-changes": targets.add(object)
            default: changes.add(object)
            }
        }
        func done() -> Bool {
            finished.isComplete && changes.isComplete && targets.isComplete && summaries.isCorrect && classes.isCorrect
        }
        while !done() && Date() < deadline {
            reader.poll(tally)
        }
        let aborted = exactlyOnce ? try readToTheEnd(reader, kafka: kafka, logger: logger, tally) : ""
        print(
            "check: \(finished.summary(noun: "finished workouts")); \(changes.summary(noun: "zone changes")); "
                + "\(targets.summary(noun: "target changes")); \(summaries.summary()); \(classes.summary())\(aborted)")
        for tally in [finished, changes, targets] {
            guard let (id, got) = tally.firstMismatch, let wanted = tally.expected[id] else { continue }
            printMismatch(id: id, expected: wanted, actual: got)
        }
        for tally in [summaries, classes] {
            if let (key, wanted, got) = tally.firstMismatch { printMismatch(id: key, expected: wanted, actual: got) }
        }
        guard finished.isCorrect && changes.isCorrect && targets.isCorrect && summaries.isCorrect && classes.isCorrect
        else { throw ExitCode.failure }
        let repeated = [finished.repeats, changes.repeats, targets.repeats, summaries.repeats, classes.repeats]
        if exactlyOnce && repeated.contains(where: { $0 > 0 }) {
            throw ExitCode.failure
        }
    }

    /// Exactly once: a repeat may come after the last first copy, so reads on to the end of
    /// every partition (for read_committed, the last stable offset: open transactions must end
    /// first), and counts what a read_uncommitted reader sees beside it. Returns the verdict's
    /// exactly-once part.
    private func readToTheEnd(
        _ reader: OutputReader, kafka: KafkaConfiguration, logger: Logger, _ tally: (KafkaRecord) -> Void
    ) throws -> String {
        let end = try reader.endOffsets()
        let complete = reader.readUntil(end, deadline: Date().addingTimeInterval(Double(checkTimeoutS)), tally)
        let everything = try OutputReader(kafka: kafka, logger: logger, isolation: "read_uncommitted")
        defer { everything.close() }
        var uncommitted = 0
        _ = everything.readUntil(end, deadline: Date().addingTimeInterval(Double(checkTimeoutS))) { _ in
            uncommitted += 1
        }
        let committed = reader.recordsRead
        return "; exactly-once: \(committed) records read committed, \(uncommitted) read uncommitted "
            + "(\(max(0, uncommitted - committed)) in aborted transactions, hidden)"
            + (complete ? "" : ", end of the topics not reached")
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

import Foundation
import ZoneSimulation

/// Person summaries compared with the oracle's: each person's latest summary must equal the
/// one the oracle reached after all their workouts. `last_session` is compared only for a
/// person with one workout, since workouts of several sessions may reach the person stage in
/// any order. A summary that repeats an earlier one exactly is counted as a repeat.
struct PersonSummaryTally {
    struct Expectation {
        let summary: [String: Any]
        let workouts: Int
    }

    let expected: [String: Expectation]
    private(set) var latest: [String: [String: Any]] = [:]
    private(set) var received = 0
    private var seenText: [String: Set<String>] = [:]
    private(set) var repeats = 0

    init(expected: [String: Expectation]) {
        self.expected = expected
    }

    mutating func add(_ object: [String: Any]) {
        guard let person = object["person"] as? String, expected[person] != nil else { return }
        received += 1
        latest[person] = object
        let text =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? ""
        if !seenText[person, default: []].insert(text).inserted { repeats += 1 }
    }

    private func matches(_ person: String) -> Bool {
        guard let wanted = expected[person], var got = latest[person] else { return false }
        var summary = wanted.summary
        if wanted.workouts > 1 {
            summary["last_session"] = nil
            got["last_session"] = nil
        }
        return JSONComparison.equal(got, summary)
    }

    var differing: [String] { expected.keys.filter { latest[$0] != nil && !matches($0) }.sorted() }
    var missing: Int { expected.keys.filter { latest[$0] == nil }.count }
    var isCorrect: Bool { expected.keys.allSatisfy(matches) }

    /// The first person whose latest summary differs, with what was expected and what came.
    var firstMismatch: (person: String, expected: Any, actual: Any)? {
        differing.first.map { ($0, expected[$0]!.summary, latest[$0]!) }
    }

    func summary() -> String {
        let matching = expected.keys.filter(matches).count
        var text = "\(matching) of \(expected.count) persons' latest summaries match the oracle (\(received) read)"
        if missing > 0 { text += ", \(missing) missing" }
        if !differing.isEmpty { text += ", \(differing.count) differ: \(differing.prefix(5))" }
        if repeats > 0 { text += ", \(repeats) repeats (identical)" }
        return text
    }
}

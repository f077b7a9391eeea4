import Foundation
import ZoneSimulation

/// Person or class summaries compared with the oracle's: each key's latest summary (a person's,
/// a class day's) must equal the one the oracle reached after all its workouts.
/// `last_session` is compared only for a key with one workout, since workouts of several
/// sessions may reach a stage in any order. A summary that repeats an earlier one exactly is
/// counted as a repeat.
///
/// At least once (``allowsLateRepeat``), a key whose expected summary came and whose latest is
/// an exact repeat of an earlier one also passes: an instance that froze past the group's
/// session timeout can publish, on waking, the summary it computed before it lost the
/// partition, after its successor's (docs/explanation/guarantees.md); exactly-once fences it.
struct SummaryTally {
    struct Expectation {
        let summary: [String: Any]
        let workouts: Int
    }

    let expected: [String: Expectation]
    /// The key a summary belongs to, and what the keys are called.
    let key: ([String: Any]) -> String?
    let noun: String
    private(set) var latest: [String: [String: Any]] = [:]
    private(set) var received = 0
    private var seenText: [String: Set<String>] = [:]
    private(set) var repeats = 0
    /// Whether a late exact repeat may stand as a key's latest summary (at-least-once).
    var allowsLateRepeat = false
    /// Keys whose expected summary has come, and keys whose latest summary repeats an earlier one.
    private var matchedOnce: Set<String> = []
    private var latestRepeats: Set<String> = []

    init(expected: [String: Expectation], noun: String, key: @escaping ([String: Any]) -> String?) {
        self.expected = expected
        self.noun = noun
        self.key = key
    }

    /// Person summaries, by person.
    static func persons(_ expected: [String: Expectation]) -> SummaryTally {
        SummaryTally(expected: expected, noun: "persons'") { $0["person"] as? String }
    }

    /// Class summaries, by `<class>@<day>`.
    static func classDays(_ expected: [String: Expectation]) -> SummaryTally {
        SummaryTally(expected: expected, noun: "class days'") { object in
            guard let sessionClass = object["class"] as? String, let day = object["day"] as? String else { return nil }
            return "\(sessionClass)@\(day)"
        }
    }

    mutating func add(_ object: [String: Any]) {
        guard let person = key(object), expected[person] != nil else { return }
        received += 1
        latest[person] = object
        let text =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? ""
        if seenText[person, default: []].insert(text).inserted {
            latestRepeats.remove(person)
        } else {
            repeats += 1
            latestRepeats.insert(person)
        }
        if equalsExpected(object, person) { matchedOnce.insert(person) }
    }

    private func equalsExpected(_ object: [String: Any], _ person: String) -> Bool {
        guard let wanted = expected[person] else { return false }
        var got = object
        var summary = wanted.summary
        if wanted.workouts > 1 {
            summary["last_session"] = nil
            got["last_session"] = nil
        }
        return JSONComparison.equal(got, summary)
    }

    private func matches(_ person: String) -> Bool {
        guard let got = latest[person] else { return false }
        return equalsExpected(got, person) || lateRepeatStands(person)
    }

    /// The expected summary came, and a late exact repeat of an earlier one followed it.
    private func lateRepeatStands(_ person: String) -> Bool {
        allowsLateRepeat && matchedOnce.contains(person) && latestRepeats.contains(person)
            && latest[person].map { !equalsExpected($0, person) } == true
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
        var text = "\(matching) of \(expected.count) \(noun) latest summaries match the oracle (\(received) read)"
        if missing > 0 { text += ", \(missing) missing" }
        if !differing.isEmpty { text += ", \(differing.count) differ: \(differing.prefix(5))" }
        if repeats > 0 { text += ", \(repeats) repeats (identical)" }
        let late = expected.keys.filter(lateRepeatStands).count
        if late > 0 { text += ", \(late) ending on a late repeat of an earlier summary (at least once)" }
        return text
    }
}

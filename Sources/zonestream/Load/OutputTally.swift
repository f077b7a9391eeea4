import ZoneSimulation

/// Outputs of one kind compared with the oracle's, by id; repeats must be identical.
struct OutputTally {
    let expected: [String: Any]
    let idField: String
    private(set) var seen: [String: Int] = [:]
    private(set) var mismatched: [String: Any] = [:]

    init(expected: [String: Any], idField: String) {
        self.expected = expected
        self.idField = idField
    }

    mutating func add(_ object: [String: Any]) {
        guard let id = object[idField] as? String, let wanted = expected[id] else { return }
        seen[id, default: 0] += 1
        if !JSONComparison.equal(object, wanted) { mismatched[id] = object }
    }

    var isComplete: Bool { seen.count == expected.count }
    var isCorrect: Bool { isComplete && mismatched.isEmpty }
    var firstMismatch: (String, Any)? { mismatched.keys.sorted().first.map { ($0, mismatched[$0]!) } }

    /// Copies beyond the first, over all ids.
    var repeats: Int { seen.values.reduce(0) { $0 + $1 - 1 } }

    func summary(noun: String) -> String {
        var text = "\(seen.count - mismatched.count) of \(expected.count) \(noun) match the oracle"
        if expected.count > seen.count { text += ", \(expected.count - seen.count) missing" }
        if !mismatched.isEmpty { text += ", \(mismatched.count) differ: \(mismatched.keys.sorted().prefix(5))" }
        if repeats > 0 { text += ", \(repeats) repeats (identical)" }
        return text
    }
}

/// "Did you mean": the known setting nearest to a mistyped one.
extension SettingKey {
    /// `; did you mean 'workers'?` for a key within a few edits of a known one (or whose last
    /// part is a known key's last part, `port` for `http.port`), else empty.
    static func suggestion(for key: String) -> String {
        nearest(to: key, among: all.map(\.key)).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The same for an environment variable (`ZONESTREAM_WROKERS`).
    static func suggestion(forEnvironmentName name: String) -> String {
        nearest(to: name, among: all.map(\.environmentName)).map { "; did you mean \($0)?" } ?? ""
    }

    private static func nearest(to text: String, among candidates: [String]) -> String? {
        let lowered = text.lowercased()
        let allowed = max(2, lowered.count / 4)
        let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= allowed { return best.0 }
        let lastPart = lowered.split(whereSeparator: { $0 == "." || $0 == "_" }).last.map(String.init) ?? lowered
        return candidates.first { $0.lowercased().hasSuffix("." + lastPart) }
    }

    /// Levenshtein distance (insertions, deletions, substitutions), over characters.
    static func editDistance(_ left: String, _ right: String) -> Int {
        let left = Array(left)
        let right = Array(right)
        guard !left.isEmpty else { return right.count }
        var previous = Array(0...right.count)
        for (row, leftCharacter) in left.enumerated() {
            var current = [row + 1] + Array(repeating: 0, count: right.count)
            for (column, rightCharacter) in right.enumerated() {
                let substitution = previous[column] + (leftCharacter == rightCharacter ? 0 : 1)
                current[column + 1] = min(substitution, previous[column + 1] + 1, current[column] + 1)
            }
            previous = current
        }
        return previous[right.count]
    }
}

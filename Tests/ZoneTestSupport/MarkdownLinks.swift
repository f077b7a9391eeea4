public import Foundation

/// The relative links of Markdown pages, as a reader follows them: how the docs' tests and the
/// Debian package's test check that every link leads somewhere.
public enum MarkdownLinks {
    /// The relative link targets of a Markdown text, outside code blocks: `(path#anchor)`.
    public static func relativeTargets(in text: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence else { continue }
            var rest = line[...]
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = String(after[..<close])
                if !target.contains(":") && !target.contains(" ") { targets.append(target) }
                rest = after[close...]
            }
        }
        return targets
    }

    /// The links of `page` whose file does not exist, as written in it.
    public static func broken(in page: URL) throws -> [String] {
        let text = try String(contentsOf: page, encoding: .utf8)
        return relativeTargets(in: text).filter { link in
            let path = String(link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
            guard !path.isEmpty else { return false }
            let target = page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
            return !FileManager.default.fileExists(atPath: target.path)
        }
    }
}

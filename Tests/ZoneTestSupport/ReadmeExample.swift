public import Foundation

/// The README's first example: its input records (topic, key, value) in order, and the outputs
/// it shows by topic, read from the README itself so that its tests keep it true.
public struct ReadmeExample {
    public var inputs: [(topic: String, key: String, value: String)] = []
    public var outputs: [String: [String]] = [:]

    public static var readme: URL { RepositoryFiles.root.appendingPathComponent("README.md") }

    /// The code block after each `<!-- example inputs -->` and `<!-- example output TOPIC -->`
    /// marker; an input line is `topic key value`, an output line one record's value.
    public static func load() throws -> ReadmeExample {
        let lines = try String(contentsOf: readme, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var example = ReadmeExample()
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            guard line.hasPrefix("<!-- example "), line.hasSuffix("-->") else { continue }
            let words = line.dropFirst(5).dropLast(3).split(separator: " ").map(String.init)
            guard index < lines.count, lines[index].hasPrefix("```") else { continue }
            index += 1
            var block: [String] = []
            while index < lines.count, !lines[index].hasPrefix("```") {
                block.append(String(lines[index]))
                index += 1
            }
            if words.count == 2 && words[1] == "inputs" {
                for entry in block where !entry.isEmpty {
                    let parts = entry.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                    example.inputs.append(
                        (String(parts[0]), String(parts[1]), String(parts[2]).trimmingCharacters(in: .whitespaces)))
                }
            } else if words.count == 3 && words[1] == "output" {
                example.outputs[words[2], default: []] += block.filter { !$0.isEmpty }
            }
        }
        return example
    }
}

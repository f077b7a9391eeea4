import Foundation
import Testing
import ZoneTestSupport

/// The docs as a reader walks them: every relative link leads to a file that exists (and to a
/// heading that exists, when it names one), every page under docs/ is reachable from the
/// README, and the README stays a getting-started page.
struct DocumentationLinksTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Markdown files of the repository, outside build folders.
    static func markdownFiles() -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            let name = url.lastPathComponent
            if name.hasPrefix(".") || name.hasPrefix(".build") || name == "node_modules" {
                enumerator?.skipDescendants()
                continue
            }
            if name.hasSuffix(".md") { files.append(url.standardizedFileURL) }
        }
        return files
    }

    /// The relative link targets of a Markdown text, outside code blocks: `(path#anchor)`.
    static func links(in text: String) -> [String] { MarkdownLinks.relativeTargets(in: text) }

    /// GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as dashes.
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var inFence = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let kept = heading.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == " " || $0 == "_"
            }
            anchors.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }

    @Test func everyRelativeLinkLeadsSomewhere() throws {
        for file in Self.markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for link in Self.links(in: text) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let target =
                    path.isEmpty
                    ? file : file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                let name = file.path.replacingOccurrences(of: Self.root.path + "/", with: "")
                guard FileManager.default.fileExists(atPath: target.path) else {
                    Issue.record("\(name): \(link) leads nowhere")
                    continue
                }
                if parts.count == 2, target.pathExtension == "md" {
                    let anchors = Self.anchors(in: try String(contentsOf: target, encoding: .utf8))
                    #expect(anchors.contains(String(parts[1])), "\(name): \(link) names no heading there")
                }
            }
        }
    }

    @Test func everyPageIsReachableFromTheReadme() throws {
        let readme = Self.root.appendingPathComponent("README.md").standardizedFileURL
        var reached: Set<URL> = [readme]
        var queue = [readme]
        while let file = queue.popLast() {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for link in Self.links(in: text) {
                let path = String(link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                guard path.hasSuffix(".md") else { continue }
                let target = file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                if reached.insert(target).inserted { queue.append(target) }
            }
        }
        let pages = Self.markdownFiles().filter {
            $0.path.hasPrefix(Self.root.appendingPathComponent("docs").path)
                || $0.path.hasPrefix(Self.root.appendingPathComponent("benchmarks").path)
        }
        for page in pages where !page.path.contains("/.build") {
            #expect(reached.contains(page), "\(page.path) is not reachable from README.md")
        }
    }

    @Test func theReadmeIsAGettingStartedPage() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 200, "README.md has \(lines) lines; move detail to a page under docs/")
    }
}

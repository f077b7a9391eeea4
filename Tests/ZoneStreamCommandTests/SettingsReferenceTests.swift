import Foundation
import Testing

@testable import zonestream

/// The settings reference is generated from the one table the loader uses, so the docs cannot
/// drift from the defaults and limits the binary applies.
struct SettingsReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theReferencePageHoldsTheGeneratedTable() throws {
        let page = try String(
            contentsOf: Self.root.appendingPathComponent("docs/reference/settings.md"), encoding: .utf8)
        let start = try #require(page.range(of: "<!-- settings table -->\n"))
        let end = try #require(page.range(of: "\n<!-- end settings table -->"))
        let table = String(page[start.upperBound..<end.lowerBound])
        #expect(
            table == SettingsCommand.markdownTable(),
            "docs/reference/settings.md is stale: paste in `zonestream settings --markdown`")
    }

    /// Every setting of the table is in the shipped settings file, with the same default.
    @Test func theShippedSettingsFileListsEverySetting() throws {
        let file = try String(
            contentsOf: Self.root.appendingPathComponent("config/zonestream.yaml"), encoding: .utf8)
        for setting in SettingKey.all {
            let name = String(setting.key.split(separator: ".").last ?? "")
            #expect(file.contains("\(name):"), "\(setting.key) is not in config/zonestream.yaml")
        }
    }
}

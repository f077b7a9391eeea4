import Foundation
import Testing

@testable import ZoneBench

/// The committed peers.json is what `bench --peer` writes, and its plot names every client.
@Suite struct PeersPlotTests {
    static let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("benchmarks/results")

    /// The measurements committed: on the embedded broker, and on noida-db (where Faust runs too).
    @Test(arguments: ["", "noida-db/"])
    func theCommittedMeasurementIsDrawnWithEveryClient(_ directory: String) throws {
        let results = Self.results.appendingPathComponent(directory)
        let data = try Data(contentsOf: results.appendingPathComponent("peers.json"))
        let report = try JSONDecoder().decode(PeersReport.self, from: data)
        let svg = PeersPlot(report: report).svg
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>"))
        #expect(svg.components(separatedBy: "<text ").count == svg.components(separatedBy: "</text>").count)
        for name in ["ZoneStream", "bare consumer", "Kafka I/O floor"] + report.peers.map(\.peer) {
            #expect(svg.contains(">\(name)</text>"), "peers.svg lacks \(name)")
        }
        for figures in report.latency where figures.peer != "zonestream" {
            #expect(svg.contains(">\(figures.peer)</text>"), "peers.svg lacks \(figures.peer)'s latency")
        }
        let committed = try String(contentsOf: results.appendingPathComponent("peers.svg"), encoding: .utf8)
        #expect(committed == svg, "peers.svg is not drawn from peers.json: run zonestream bench plot")
    }

    @Test func compactFiguresKeepTwoOrThreeDigits() {
        #expect(PeersPlot.compact(1_123_013) == "1.1 M")
        #expect(PeersPlot.compact(71_110) == "71.1 k")
        #expect(PeersPlot.compact(950) == "950")
    }
}

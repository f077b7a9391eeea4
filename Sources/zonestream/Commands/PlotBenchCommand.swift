import ArgumentParser
import ZoneBench

/// `zonestream bench plot`: draws peers.svg from a peers.json, as `bench --peer` does at the
/// end of its measurement, so that a plot can be redrawn without measuring again.
struct PlotBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot", abstract: "Draw peers.svg from the peers.json in a results directory.")

    // Not --output: `bench` itself takes that name.
    @Option(help: "The directory holding peers.json; peers.svg is written beside it.") var results =
        "benchmarks/results"

    func run() throws { try Benchmark.drawPeersPlot(in: results) }
}

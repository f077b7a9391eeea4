import Benchmark
import ZoneCodecs
import ZoneEngine

/// Decoder and encoder cost per message. Decoding is scaled by a thousand messages per
/// iteration (time metrics read as µs per 1000, i.e. ns per message).
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
        scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 200)
    let sample = Array(
        #"{"type":"sample","session":"s0000123","ts":1717200000000,"quantity":"heart_rate","value":142.5}"#.utf8)
    let key = Array("s0000123".utf8)

    func decoding(_ name: String, _ message: [UInt8]) {
        Benchmark(name, configuration: configuration) { benchmark in
            var decoder = WorkoutEventDecoder()
            message.withUnsafeBytes { value in
                key.withUnsafeBytes { key in
                    benchmark.startMeasurement()
                    for _ in benchmark.scaledIterations { blackHole(decoder.decode(value: value, key: key)) }
                    benchmark.stopMeasurement()
                }
            }
        }
    }
    decoding("WorkoutEventDecoder.decode sample", sample)
    // The same sample with a space after each colon: outside the fast path's plain form, so
    // this is the general path (the strict parser's tape and the validator), for comparison.
    decoding(
        "WorkoutEventDecoder.decode sample, general path",
        Array(
            #"{"type": "sample","session": "s0000123","ts": 1717200000000,"quantity": "heart_rate","value": 142.5}"#
                .utf8))

    // The processor's path: encode into the writer's buffer and produce from it, no copy.
    Benchmark("ZoneChangeWriter.encode", configuration: configuration) { benchmark in
        let zones = try! ZoneConfiguration.validated(
            quantity: .heartRate, source: .system, boundaries: [91, 114, 136, 158])
        var session = WorkoutSession(id: "s0000123", startTimestamp: 0, person: "p", activity: nil, profile: nil)
        let outcome = session.applySample(.heartRate, at: 0, value: 120, settings: EngineSettings())
        guard case .accepted(let changes) = outcome, changes.contains(.zone),
            let change = session.publishedZoneChange(.heartRate, at: 0)
        else { return }
        var writer = ZoneChangeWriter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            writer.encode(change, session: "s0000123", person: "p", configuration: zones)
            blackHole(writer.withBytes { $0.count })
        }
        benchmark.stopMeasurement()
    }
}

import Benchmark
import EngineWorkload
import ZoneEngine

/// Nanoseconds and allocations per sample on the engine's hot path, one core.
/// Each iteration is scaled by a million samples, so time metrics read as ns per sample.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
        scalingFactor: .mega, maxDuration: .seconds(3), maxIterations: 20)
    let settings = EngineSettings()
    let values = StoreWorkload.heartRates

    Benchmark("WorkoutSession.applySample", configuration: configuration) { benchmark in
        var session = WorkoutSession(
            id: "bench", startTimestamp: 0, person: "p", activity: nil, profile: StoreWorkload.profile)
        var timestamp: Int64 = 0
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            timestamp += 1000
            blackHole(session.applySample(.heartRate, at: timestamp, value: values[index & 1023], settings: settings))
        }
        benchmark.stopMeasurement()
    }

    // The store's path (adds the id lookup) for heart rate, and for riders' power, the track a
    // session keeps on the heap once used, with a plan and without, changing often or rarely.
    for kind in StoreWorkload.kinds {
        Benchmark(kind.name, configuration: configuration) { benchmark in
            var workload = StoreWorkload(quantity: kind.quantity, planned: kind.planned, drifting: kind.drifting)
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations { workload.apply(sample: index) }
            benchmark.stopMeasurement()
            blackHole(workload.reads)
        }
    }
}

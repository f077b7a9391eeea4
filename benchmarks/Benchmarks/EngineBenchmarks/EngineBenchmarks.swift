import Benchmark
import Foundation
import ZoneEngine

/// Nanoseconds and allocations per sample on the engine's hot path, one core.
/// Each iteration is scaled by a million samples, so time metrics read as ns per sample.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
        scalingFactor: .mega, maxDuration: .seconds(3), maxIterations: 20)
    let settings = EngineSettings()
    // Every effort figure counted: a known maximum (bands, points), age, weight and sex (calories).
    let profile = PersonProfile(person: "p", age: 40, functionalThresholdPower: 250, weightKg: 70, sex: .male)
    // A heart rate that drifts across zones the way a workout does.
    let values: [Double] = (0..<1024).map { (index: Int) -> Double in 120.0 + 40.0 * sin(Double(index) / 40.0) }

    Benchmark("WorkoutSession.applySample", configuration: configuration) { benchmark in
        var session = WorkoutSession(
            id: "bench", startTimestamp: 0, person: "p", activity: nil, profile: profile)
        var timestamp: Int64 = 0
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            timestamp += 1000
            blackHole(session.applySample(.heartRate, at: timestamp, value: values[index & 1023], settings: settings))
        }
        benchmark.stopMeasurement()
    }

    // The store's path (adds the id lookup) for heart rate, and for riders' power, the track a
    // session keeps on the heap once used.
    let watts: [Double] = (0..<1024).map { (index: Int) -> Double in 200.0 + 80.0 * sin(Double(index) / 40.0) }
    // A coached class's plan: 200 one-minute steps, alternating work in heart-rate zones 3-4 with
    // at least 180 W and recovery in zones 1-2, over the benchmark's whole span.
    let intervals = (0..<200).map { index in
        index % 2 == 0
            ? PlanStep(
                purpose: .work, durationMs: 60_000,
                targets: PerQuantity(
                    heartRate: .zones(low: 3, high: 4), cyclingPower: .values(minimum: 180, maximum: nil)))
            : PlanStep(
                purpose: .recovery, durationMs: 60_000,
                targets: PerQuantity(heartRate: .zones(low: 1, high: 2), cyclingPower: nil))
    }
    let plan = WorkoutPlan(name: "intervals", source: .class, anchor: 0, steps: intervals)
    // Readings either cycle through the curve across sessions (each session's next sample is
    // far from its last: a zone or target change nearly every sample, the worst case) or follow
    // it in time (each session's heart rate drifts as a body's does: changes are rare).
    for (name, quantity, readings, planned, steady) in [
        ("SessionStore.applySample (1000 sessions)", Quantity.heartRate, values, false, false),
        ("SessionStore.applySample, power (1000 sessions)", Quantity.cyclingPower, watts, false, false),
        ("SessionStore.applySample with a plan (1000 sessions)", Quantity.heartRate, values, true, false),
        ("SessionStore.applySample, power with a plan (1000 sessions)", Quantity.cyclingPower, watts, true, false),
        ("SessionStore.applySample, drifting (1000 sessions)", Quantity.heartRate, values, false, true),
        ("SessionStore.applySample, drifting, with a plan (1000 sessions)", Quantity.heartRate, values, true, true),
    ] {
        Benchmark(name, configuration: configuration) { benchmark in
            var store = SessionStore(settings: settings)
            var outputs = EngineOutputs()
            let ids = (0..<1000).map { "s\($0)" }
            for id in ids {
                let start = SessionStartRequest(person: "p", plan: planned ? plan : nil)
                store.handle(
                    WorkoutEvent(session: id, timestamp: 0, body: .sessionStart(start)),
                    wallMs: 0, profiles: { _ in profile }, outputs: &outputs)
            }
            outputs.removeAll()
            // The outputs read (each field the encoder reads) and emptied after each sample that
            // produced any, as a worker does after each record.
            var changes = 0
            var timestamp: Int64 = 0
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                if index % 1000 == 0 { timestamp += 1000 }
                let reading = steady ? readings[Int(timestamp / 1000) & 1023] : readings[index & 1023]
                store.applySample(
                    ids[index % 1000], quantity, at: timestamp, value: reading, wallMs: 0, outputs: &outputs)
                if !outputs.isEmpty {
                    changes &+= encoderReads(outputs)
                    outputs.removeAll()
                }
            }
            benchmark.stopMeasurement()
            blackHole(changes)
        }
    }
}

/// Reads each output's fields as the processor's encoder does, so that the compiler keeps the
/// reads the real path makes.
@inline(__always)
func encoderReads(_ outputs: EngineOutputs) -> Int {
    var sum = 0
    for output in outputs.zoneChanges {
        let change = output.change
        let session = outputs.session(of: output)
        sum &+= session.session.utf8.count &+ (session.person?.utf8.count ?? 0) &+ Int(change.timestamp)
        sum &+= change.currentZone &+ (change.previousZone ?? 0)
        for zone in 0..<output.configuration.zoneCount { sum &+= Int(change.durations[zone]) }
        sum &+= (output.configuration.source == .system ? 1 : 0) &+ Int(output.configuration.lowerBound(ofZone: 1) ?? 0)
    }
    for output in outputs.targetChanges {
        let change = output.change
        let session = outputs.session(of: output)
        sum &+=
            session.session.utf8.count &+ (session.person?.utf8.count ?? 0) &+ (session.sessionClass?.utf8.count ?? 0)
        sum &+= Int(change.timestamp) &+ change.state.step &+ (change.previous?.step ?? 0)
        sum &+= Int(change.stepStart) &+ Int(change.stepEnd) &+ (change.target == nil ? 0 : 1)
    }
    return sum
}

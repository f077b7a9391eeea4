import Foundation
import ZoneEngine

/// The engine benchmarks' store workload, shared by the wall-clock benchmarks
/// (`EngineBenchmarks`) and the instruction counter run under callgrind (`EngineInstructions`),
/// so that both measure the same loop.
///
/// A thousand sessions, each started with a plan or without; readings either cycle through the
/// curve across sessions (each session's next sample is far from its last: a zone or target
/// change nearly every sample, the worst case) or follow it in time (each session's heart rate
/// drifts as a body's does: changes are rare). After each sample that produced any output, the
/// outputs are read (each field the processor's encoder reads) and emptied, as a worker does
/// after each record.
public struct StoreWorkload: ~Copyable {
    /// Each kind of workload, with the name the benchmarks report it under.
    public static let kinds: [(name: String, quantity: Quantity, planned: Bool, drifting: Bool)] = [
        ("SessionStore.applySample (1000 sessions)", .heartRate, false, false),
        ("SessionStore.applySample, power (1000 sessions)", .cyclingPower, false, false),
        ("SessionStore.applySample with a plan (1000 sessions)", .heartRate, true, false),
        ("SessionStore.applySample, power with a plan (1000 sessions)", .cyclingPower, true, false),
        ("SessionStore.applySample, drifting (1000 sessions)", .heartRate, false, true),
        ("SessionStore.applySample, drifting, with a plan (1000 sessions)", .heartRate, true, true),
    ]

    /// Every effort figure counted: a known maximum (bands, points), age, weight and sex (calories).
    public static let profile = PersonProfile(
        person: "p", age: 40, functionalThresholdPower: 250, weightKg: 70, sex: .male)
    /// A heart rate that moves across zones the way a workout does.
    public static let heartRates: [Double] = (0..<1024).map { 120.0 + 40.0 * sin(Double($0) / 40.0) }
    public static let watts: [Double] = (0..<1024).map { 200.0 + 80.0 * sin(Double($0) / 40.0) }
    /// A coached class's plan: 200 one-minute steps, alternating work in heart-rate zones 3-4
    /// with at least 180 W and recovery in zones 1-2, over the benchmark's whole span.
    public static let plan = WorkoutPlan(
        name: "intervals", source: .class, anchor: 0,
        steps: (0..<200).map { index in
            index % 2 == 0
                ? PlanStep(
                    purpose: .work, durationMs: 60_000,
                    targets: PerQuantity(
                        heartRate: .zones(low: 3, high: 4), cyclingPower: .values(minimum: 180, maximum: nil)))
                : PlanStep(
                    purpose: .recovery, durationMs: 60_000,
                    targets: PerQuantity(heartRate: .zones(low: 1, high: 2), cyclingPower: nil))
        })

    @usableFromInline var store = SessionStore(settings: EngineSettings())
    @usableFromInline var outputs = EngineOutputs()
    @usableFromInline let ids = (0..<1000).map { "s\($0)" }
    @usableFromInline let quantity: Quantity
    @usableFromInline let readings: [Double]
    @usableFromInline let drifting: Bool
    @usableFromInline var timestamp: Int64 = 0
    @usableFromInline var readSum = 0
    /// What the reads summed, for the caller to keep (so that the compiler keeps the reads).
    public var reads: Int { readSum }

    public init(quantity: Quantity, planned: Bool, drifting: Bool) {
        self.quantity = quantity
        self.readings = quantity == .heartRate ? Self.heartRates : Self.watts
        self.drifting = drifting
        for id in ids {
            let start = SessionStartRequest(person: "p", plan: planned ? Self.plan : nil)
            store.handle(
                WorkoutEvent(session: id, timestamp: 0, body: .sessionStart(start)),
                wallMs: 0, profiles: ["p": Self.profile], outputs: &outputs)
        }
        outputs.removeAll()
    }

    /// Applies sample `index` (each session's samples are a second apart) and reads and empties
    /// what it produced. Always inlined into the caller's loop, so that what is measured is the
    /// engine's calls and not whether the compiler chose to inline this one.
    @inlinable @inline(__always)
    public mutating func apply(sample index: Int) {
        if index % 1000 == 0 { timestamp += 1000 }
        let reading = drifting ? readings[Int(timestamp / 1000) & 1023] : readings[index & 1023]
        store.applySample(ids[index % 1000], quantity, at: timestamp, value: reading, wallMs: 0, outputs: &outputs)
        if !outputs.isEmpty {
            readSum &+= Self.encoderReads(outputs)
            outputs.removeAll()
        }
    }

    /// Reads each output's fields as the processor's encoder does (in place, by index), so that
    /// the compiler keeps the reads the real path makes.
    @inlinable
    static func encoderReads(_ outputs: borrowing EngineOutputs) -> Int {
        var sum = 0
        for index in outputs.zoneChanges.indices {
            let session = outputs.zoneChanges[index].session
            sum &+= session.session.utf8.count &+ (session.person?.utf8.count ?? 0)
            sum &+= Int(outputs.zoneChanges[index].change.timestamp) &+ outputs.zoneChanges[index].change.currentZone
            sum &+= outputs.zoneChanges[index].change.previousZone ?? 0
            for zone in 0..<outputs.zoneChanges[index].configuration.zoneCount {
                sum &+= Int(outputs.zoneChanges[index].change.durations[zone])
            }
            sum &+= (outputs.zoneChanges[index].configuration.source == .system ? 1 : 0)
            sum &+= Int(outputs.zoneChanges[index].configuration.lowerBound(ofZone: 1) ?? 0)
        }
        for index in outputs.targetChanges.indices {
            let session = outputs.targetChanges[index].session
            sum &+=
                session.session.utf8.count &+ (session.person?.utf8.count ?? 0)
                &+ (session.sessionClass?.utf8.count ?? 0)
            let change = outputs.targetChanges[index].change
            sum &+= Int(change.timestamp) &+ change.state.step &+ (change.previous?.step ?? 0)
            sum &+= Int(change.stepStart) &+ Int(change.stepEnd) &+ (change.target == nil ? 0 : 1)
        }
        return sum
    }
}

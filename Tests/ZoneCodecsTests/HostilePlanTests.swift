import Foundation
import Testing
import ZoneCodecs
import ZoneEngine

/// Plans of every invalid kind, in a `session_start` (applied without the plan, and
/// dead-lettered as `invalid_plan`) and on `class-plans` (dead-lettered with the first reason
/// that applies); and the largest valid plan, whose finished workout stays within its bound.
@Suite struct HostilePlanTests {
    static let step = #"{"purpose":"work","duration_ms":60000,"target":{"heart_rate":{"zones":[2,3]}}}"#

    /// Plans that break a rule, each with what it breaks.
    static let invalidPlans: [(String, String)] = [
        ("not an object", #"[1,2]"#),
        ("a string", #""hiit""#),
        ("no steps", #"{"plan":"x"}"#),
        ("steps not an array", #"{"steps":{}}"#),
        ("empty steps", #"{"steps":[]}"#),
        ("51 entries", #"{"steps":[\#(Array(repeating: step, count: 51).joined(separator: ","))]}"#),
        ("201 steps flattened", #"{"steps":[{"repeat":50,"steps":[\#(step),\#(step),\#(step),\#(step)]},\#(step)]}"#),
        ("a block in a block", #"{"steps":[{"repeat":2,"steps":[{"repeat":2,"steps":[\#(step)]}]}]}"#),
        ("repeat 0", #"{"steps":[{"repeat":0,"steps":[\#(step)]}]}"#),
        ("repeat 51", #"{"steps":[{"repeat":51,"steps":[\#(step)]}]}"#),
        ("repeat not an integer", #"{"steps":[{"repeat":2.0,"steps":[\#(step)]}]}"#),
        ("a block without steps", #"{"steps":[{"repeat":2}]}"#),
        ("no duration", #"{"steps":[{"purpose":"work"}]}"#),
        ("duration too short", #"{"steps":[{"duration_ms":999}]}"#),
        ("duration too long", #"{"steps":[{"duration_ms":86400001}]}"#),
        ("duration a string", #"{"steps":[{"duration_ms":"60000"}]}"#),
        ("duration a real", #"{"steps":[{"duration_ms":60000.0}]}"#),
        ("unknown purpose", #"{"steps":[{"duration_ms":60000,"purpose":"sprint"}]}"#),
        ("name empty", #"{"plan":"","steps":[\#(step)]}"#),
        ("name too long", #"{"plan":"\#(String(repeating: "n", count: 65))","steps":[\#(step)]}"#),
        ("target not an object", #"{"steps":[{"duration_ms":60000,"target":[]}]}"#),
        ("target empty", #"{"steps":[{"duration_ms":60000,"target":{}}]}"#),
        ("target only nulls", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":null}}]}"#),
        ("unknown quantity", #"{"steps":[{"duration_ms":60000,"target":{"speed":{"min":1}}}]}"#),
        ("zones and min", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"zones":[1,2],"min":100}}}]}"#),
        ("zones reversed", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"zones":[3,2]}}}]}"#),
        ("zone 0", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"zones":[0,2]}}}]}"#),
        ("zone 10", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"zones":[2,10]}}}]}"#),
        ("three zones", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"zones":[1,2,3]}}}]}"#),
        ("zones of reals", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"zones":[1.0,2]}}}]}"#),
        ("no bound", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"unit":"bpm"}}}]}"#),
        ("min above max", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"min":150,"max":140}}}]}"#),
        ("min equal max", #"{"steps":[{"duration_ms":60000,"target":{"cycling_power":{"min":200,"max":200}}}]}"#),
        ("bad unit", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"min":100,"unit":"W"}}}]}"#),
        ("out of range", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"max":301}}}]}"#),
        ("out of range kW", #"{"steps":[{"duration_ms":60000,"target":{"cycling_power":{"min":6,"unit":"kW"}}}]}"#),
        ("min a string", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"min":"100"}}}]}"#),
        ("not finite", #"{"steps":[{"duration_ms":60000,"target":{"heart_rate":{"min":1e400}}}]}"#),
    ]

    static func sessionStart(plan: String) -> [UInt8] {
        Array(#"{"type":"session_start","session":"s","ts":1717200000000,"person":"p","plan":\#(plan)}"#.utf8)
    }

    @Test(arguments: invalidPlans.map(\.0))
    func anInvalidPlanInASessionStartIsRefusedAndTheStartApplied(_ name: String) throws {
        let plan = try #require(Self.invalidPlans.first { $0.0 == name }).1
        var decoder = WorkoutEventDecoder()
        let event = try decoder.decode(value: Self.sessionStart(plan: plan), key: nil).get()
        guard case .sessionStart(let request) = event.body else {
            Issue.record("\(name): not a session_start")
            return
        }
        #expect(request.plan == nil && request.planDefect != nil, "\(name)")
        var store = SessionStore(settings: EngineSettings())
        var outputs = EngineOutputs()
        store.handle(event, wallMs: 0, profiles: [:], outputs: &outputs)
        #expect(outputs.rejections.map(\.reason) == [.invalidPlan], "\(name)")
        #expect(store.session("s")?.plan == nil, "\(name): applied without a plan")
        #expect(store.session("s")?.person == "p", "\(name): the rest of the start applies")
    }

    @Test(arguments: invalidPlans.map(\.0))
    func anInvalidClassPlanIsDeadLetteredAsInvalidPlan(_ name: String) throws {
        let plan = try #require(Self.invalidPlans.first { $0.0 == name }).1
        // A class-plans record carries the plan's fields directly.
        guard plan.hasPrefix("{"), plan.count > 2 else { return }
        let record = #"{"class":"c1","start_ts":1717200000000,"# + plan.dropFirst()
        var decoder = ClassPlanDecoder()
        let result = Array(record.utf8).withUnsafeBytes { value in
            Array("c1".utf8).withUnsafeBytes { key in decoder.decode(value: value, key: key) }
        }
        guard case .failure(let rejection) = result else {
            Issue.record("\(name): accepted")
            return
        }
        #expect(rejection.reason == .invalidPlan, "\(name): \(rejection)")
    }

    /// The class-plans record's own fields, in the contract's order of reasons.
    @Test func aClassPlanRecordsOwnFieldsAreCheckedInOrder() {
        let cases: [(String, String?, DeadLetterReason)] = [
            ("{not json", "c1", .malformedJSON),
            (#"[1]"#, "c1", .malformedJSON),
            (#"{"start_ts":1,"steps":[{"duration_ms":1000}]}"#, "c1", .missingField),
            (#"{"class":"c1","steps":[{"duration_ms":1000}]}"#, "c1", .missingField),
            (#"{"class":1,"start_ts":1,"steps":[{"duration_ms":1000}]}"#, "c1", .badType),
            (#"{"class":"c1","start_ts":"1","steps":[{"duration_ms":1000}]}"#, "c1", .badType),
            (#"{"class":"c1","start_ts":1.5,"steps":[{"duration_ms":1000}]}"#, "c1", .badType),
            (#"{"class":"c1","start_ts":1,"steps":[{"duration_ms":1000}]}"#, "c2", .keyMismatch),
            (#"{"class":"c1","start_ts":1,"steps":[{"duration_ms":1000}]}"#, nil, .keyMismatch),
            (#"{"class":"c1","start_ts":-1,"steps":[{"duration_ms":1000}]}"#, "c1", .outOfRange),
            (#"{"class":"c1","start_ts":1,"steps":[]}"#, "c1", .invalidPlan),
            (#"{"class":"c1","start_ts":1}"#, "c1", .invalidPlan),
        ]
        var decoder = ClassPlanDecoder()
        for (value, key, reason) in cases {
            let result = Array(value.utf8).withUnsafeBytes { bytes in
                func decode(_ key: UnsafeRawBufferPointer?) -> Result<ClassPlanDecoder.Outcome, Rejection> {
                    decoder.decode(value: bytes, key: key)
                }
                guard let key else { return decode(nil) }
                return Array(key.utf8).withUnsafeBytes { decode($0) }
            }
            guard case .failure(let rejection) = result else {
                Issue.record("\(value): accepted")
                continue
            }
            #expect(rejection.reason == reason, "\(value): \(rejection)")
        }
        let long = String(repeating: "c", count: 65)
        let tooLong = #"{"class":"\#(long)","start_ts":1,"steps":[{"duration_ms":1000}]}"#
        let result = Array(tooLong.utf8).withUnsafeBytes { value in
            Array(long.utf8).withUnsafeBytes { key in decoder.decode(value: value, key: key) }
        }
        if case .failure(let rejection) = result {
            #expect(rejection.reason == .outOfRange)
        } else {
            Issue.record("a 65-byte class was accepted")
        }
    }

    /// The largest plan (200 steps, both quantities targeted) and a session that samples
    /// through all of it: the finished workout stays far under Kafka's 1 MB default.
    @Test func theLargestPlanKeepsTheFinishedWorkoutBounded() throws {
        let both = #"{"heart_rate":{"zones":[2,4]},"cycling_power":{"min":150,"max":300}}"#
        let steps = Array(repeating: #"{"purpose":"work","duration_ms":1000,"target":\#(both)}"#, count: 4)
        let plan = #"{"plan":"max","steps":[{"repeat":50,"steps":[\#(steps.joined(separator: ","))]}]}"#
        var decoder = WorkoutEventDecoder()
        var store = SessionStore(settings: EngineSettings())
        var outputs = EngineOutputs()
        let start = try decoder.decode(value: Self.sessionStart(plan: plan), key: nil).get()
        store.handle(
            start, wallMs: 0, profiles: ["p": PersonProfile(person: "p", age: 40, functionalThresholdPower: 250)],
            outputs: &outputs)
        #expect(store.session("s")?.plan?.steps.count == 200)
        for second in 0..<200 {
            let ts = 1_717_200_000_000 + Int64(second) * 1000
            for (quantity, value) in [("heart_rate", 100 + second % 80), ("cycling_power", 100 + second)] {
                let text = #"{"type":"sample","session":"s","ts":\#(ts),"quantity":"\#(quantity)","value":\#(value)}"#
                store.handle(
                    try decoder.decode(value: Array(text.utf8), key: nil).get(), wallMs: 0, profiles: [:],
                    outputs: &outputs)
            }
        }
        let end = #"{"type":"session_end","session":"s","ts":1717200200000}"#
        store.handle(
            try decoder.decode(value: Array(end.utf8), key: nil).get(), wallMs: 0, profiles: [:],
            outputs: &outputs)
        let summary = try #require(outputs.finished.first)
        var writer = WorkoutFinishedWriter()
        let bytes = writer.write(summary)
        #expect(bytes.count < 200_000, "\(bytes.count) bytes")
        let targetChanges = outputs.targetChanges.count
        #expect(targetChanges > 0)
        print("largest plan: finished workout of \(bytes.count) bytes, \(targetChanges) target changes")
    }
}
